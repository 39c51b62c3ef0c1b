// Package mesh is the triangle data that flows from isosurface extraction
// to the renderer:
//
//	volume → isosurface → triangles → scan conversion → spans → z-buffer → image
//	                      ^^^^^^^^^
//
// On the host a Mesh is indexed (positions, optional unit vertex normals,
// faces wound counter-clockwise seen from outside). On the GPU a mesh is a
// triangle soup in two std430 buffers of vec4, vertex k of triangle i at
// element 3i+k (the GPU type documents the layout):
//
//	Positions  vec4(x, y, z, 1)     48 bytes per triangle
//	Normals    vec4(nx, ny, nz, 0)  48 bytes per triangle
//
// Package isosurface writes this layout directly; Upload and Download move
// meshes between the two forms, and Mesh.Soup gives the host soup in the
// same order (the input of raster.SetupMesh). A mesh larger than one
// storage block (MaxBlockTriangles) is uploaded as a chain of blocks
// (GPU.Next), triangle ids counting on from block to block.
//
// Normals, Normalize and ToUnitBox work in float64, so that finite float32
// coordinates of any size give finite normals, and a loaded mesh can be
// brought into the unit box (its Frame kept) before cameras are fitted.
//
// ReadPLY and WritePLY exchange meshes with other tools: binary PLY is
// written; ascii and both binary byte orders are read, with polygons fanned
// into triangles.
package mesh
