package raster

// SetupStats counts what transform, clipping and setup did with a mesh.
// Skipped triangles are not errors: they are reported, never drawn.
type SetupStats struct {
	Input     int // triangles in
	Outside   int // wholly outside the view volume: workload 0, as idle processors
	Clipped   int // crossing the near or far plane or the guard band, replaced by their clipped polygon
	NonFinite int // with a NaN or infinite coordinate after the transform: skipped
	ZeroArea  int // set-up triangles of zero area after snapping: cover no pixel
	Output    int // set-up triangles (a clipped triangle gives up to MaxClipVertices-2)
}

// SetupMesh is the CPU reference of the renderer's transform, clip and setup
// stage: triangle i of the soup (positions 3i, 3i+1, 3i+2, in model space)
// is transformed by the column-major mvp, clipped, snapped for a width x
// height image and set up. Every output triangle keeps i as its primitive
// id. Zero-area triangles are counted and left out.
func SetupMesh(mvp *[16]float32, pos [][3]float32, width, height int) ([]Triangle, SetupStats) {
	st := SetupStats{Input: len(pos) / 3}
	gx, gy := Guard(width, height)
	out := make([]Triangle, 0, st.Input)
	var poly [MaxClipVertices]Vec4
	for i := 0; i < st.Input; i++ {
		t := [3]Vec4{Transform(mvp, pos[3*i]), Transform(mvp, pos[3*i+1]), Transform(mvp, pos[3*i+2])}
		res, n := Clip(t, gx, gy, &poly)
		switch res {
		case ClipOutside:
			st.Outside++
			continue
		case ClipNonFinite:
			st.NonFinite++
			continue
		case ClipClipped:
			st.Clipped++
		}
		v0 := ToWindow(poly[0], width, height)
		for k := 1; k+1 < n; k++ {
			tri, ok := Setup([3]Vertex{v0, ToWindow(poly[k], width, height), ToWindow(poly[k+1], width, height)}, uint32(i), height)
			if !ok {
				st.ZeroArea++
				continue
			}
			out = append(out, tri)
		}
	}
	st.Output = len(out)
	return out, st
}
