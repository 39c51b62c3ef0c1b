// Package raster holds the renderer's exact rules: vertices snapped to fixed
// point, triangle setup, which pixels a triangle covers (the fill rule), and
// the depth of each covered pixel, all in integers, so that the GPU kernels
// (shaders/rasterizer/raster.glsl, a line-for-line mirror) and this CPU
// reference agree bit for bit.
//
// # Coordinates
//
// Window space has its origin at the bottom-left corner of the image, x to
// the right and y up (as OpenGL's); pixel (x, y) covers [x, x+1) x [y, y+1)
// and is sampled at its centre (x+0.5, y+0.5). Positions are snapped to
// 1/256 pixel (SubpixelBits, the precision GPUs rasterize with); a pixel
// centre is 256x+128 in those units.
// Window depth in [0, 1] is quantized to DepthBits bits.
//
// # Fill rule
//
// A pixel belongs to a triangle when its centre is strictly inside it, or
// lies exactly on a left or bottom edge: with y up and the triangle wound
// counter-clockwise, an edge from a to b is a left edge when b.y < a.y (the
// inside is to its right), and a bottom edge when it is horizontal and
// b.x > a.x (the inside is above). This is the top-left rule of Direct3D
// and Vulkan, whose y axis points down, seen in OpenGL's y-up window
// coordinates; GPUs apply it to OpenGL framebuffers the same way (llvmpipe
// agrees with it pixel for pixel). Two triangles sharing an edge therefore
// never both cover a pixel on it and never both miss it: no overlaps, no
// cracks. Clockwise triangles are reordered first; both faces are drawn (no
// culling), since magnified views clip into closed surfaces and show their
// inside.
//
// # Depth
//
// The depth of a covered pixel is z0 + floor((w1*(z1-z0) + w2*(z2-z0)) /
// area2), where w1, w2 are the edge functions that weigh vertices 1 and 2 at
// the pixel centre: window z interpolated linearly in screen space, which is
// the perspective-correct depth. Vertices are kept within GuardPixels of the
// origin (triangles beyond it are clipped), so edge functions fit in 45
// bits; for large triangles w1, w2 and area2 are shifted right together
// until area2 fits in 36 bits, so that the products fit in 63.
//
// # The stages, as the renderer runs them
//
//	Transform, Clip, ToWindow   model space to clip space (float32, every
//	                            operation in the GLSL's order), clipped against
//	                            the near and far planes and the guard band
//	                            (Guard), then snapped to window space (Vertex)
//	Setup                       a Triangle: its vertices wound counter-
//	                            clockwise, twice its area, the rows it
//	                            covers (YLo..YHi)
//	Triangle.Span               the pixels of one row (a span: the z-buffer
//	                            loop's problem data)
//	Triangle.Depth              the quantized depth at one pixel
//	Visibility.Test             the z-buffer: nearest depth wins, ties go to
//	                            the lowest primitive id
//
// SetupMesh runs the first two over a triangle soup and Rasterize the rest,
// sequentially: the CPU reference that the GPU renderer's tests compare
// images with, pixel for pixel.
//
// # Determinism
//
// Everything after snapping is integer and exact, and Visibility.Test does
// not depend on the order of its calls, so a picture is a fixed function
// of the triangles and the camera: the same on every run, whatever order
// or lanes the GPU's loops process spans in. The one float operation GLSL
// does not promise to round correctly is division (clip.go): on a GPU
// whose division differs from IEEE, coverage may move along an edge.
// The package is plain Go; it makes no GL call.
package raster
