package isosurface

import "github.com/dpgl/dpgl/rasterizer/mesh"

// Simplify is Decimate to opts.TargetFaces through meshoptimizer's
// meshopt_simplify where the program is built with it (go build -tags
// meshopt, with Debian's libmeshoptimizer-dev installed; Meshoptimizer
// reports whether it was), and Decimate itself otherwise, or when opts
// sets MaxError (meshoptimizer's error bound is relative to the mesh's
// size, not a distance).
//
// meshopt_simplify is the same kind of quadric-error collapse (Garland and
// Heckbert) with the open surface's border locked, several times faster:
// flat regions still become few long triangles and detail keeps small
// ones. Its vertices stay where the input has them (it collapses an edge
// onto one of its ends), and each keeps its own normal. Its output is not
// Decimate's, so the paper's unbalanced sets (package dataset) keep
// Decimate, whose images are fixed; Simplify is for a user's own volume,
// where time matters more than the paper's exact set.
func Simplify(m *mesh.Mesh, opts DecimateOptions) *mesh.Mesh {
	if !Meshoptimizer() || opts.TargetFaces <= 0 || opts.MaxError > 0 {
		return Decimate(m, opts)
	}
	if err := m.Validate(); err != nil {
		panic("isosurface: Simplify: " + err.Error())
	}
	if len(m.Faces) <= opts.TargetFaces {
		return compact(m, m.Faces)
	}
	return compact(m, meshoptSimplify(m, opts.TargetFaces))
}

// compact is the mesh of faces over m's vertices, with the vertices they
// use numbered in order of first use, as Decimate numbers them.
func compact(m *mesh.Mesh, faces [][3]uint32) *mesh.Mesh {
	out := &mesh.Mesh{Positions: [][3]float32{}, Faces: make([][3]uint32, 0, len(faces))}
	if m.Normals != nil {
		out.Normals = [][3]float32{}
	}
	id := make([]int32, len(m.Positions))
	for i := range id {
		id[i] = -1
	}
	for _, f := range faces {
		var g [3]uint32
		for k, v := range f {
			if id[v] < 0 {
				id[v] = int32(len(out.Positions))
				out.Positions = append(out.Positions, m.Positions[v])
				if m.Normals != nil {
					out.Normals = append(out.Normals, m.Normals[v])
				}
			}
			g[k] = uint32(id[v])
		}
		out.Faces = append(out.Faces, g)
	}
	return out
}
