// Package scene is the viewer's GPU side: a dataset's two polygon sets on
// the GPU, the compute renderer (package rasterizer) that draws them, and
// the image a window shows, in a texture:
//
//	dataset.Pair ──(mesh.Upload)──▶ balanced, unbalanced mesh.GPU
//	volume ──(isosurface.Extractor, on a new isovalue)──▶ balanced mesh.GPU
//	balanced ──(download, isosurface.Decimate on the CPU, in the background)──▶ unbalanced
//	mesh.GPU ──(rasterizer.Renderer)──▶ RGBA buffer ──(Texture.CopyFromBuffer)──▶ display texture
//
// or, with the hardware reference on, mesh.GPU ──(rasterizer.HardwareRenderer)──▶
// primitive ids, coloured by id on the CPU, into the display texture.
//
// A new isovalue re-extracts the balanced set on the GPU at once. The
// unbalanced set is a quadric-error decimation of it, which only the CPU
// does: it is made on demand (when the unbalanced set is asked for), in a
// goroutine, and until it is ready the scene draws the balanced set and
// says so in Frame.Note. Poll picks up a finished decimation. A pair
// without its unbalanced set is completed the same way, from the pair's
// own balanced mesh, exactly as package dataset makes it; so the viewer
// starts without waiting for a decimation.
//
// New uploads a pair and makes the renderer for a size; Render draws one
// frame of either set through a camera, compute or hardware, into Texture
// (and Framebuffer, for blitting); SetIso, SetLoops and Resize change what
// the next frame shows; Poll, PrepareUnbalanced and WaitDecimation follow
// the background decimation; Delete frees every GL object the scene made,
// waiting for a running decimation first. IDColor is the hardware
// reference's colouring of primitive ids.
//
// The compute renderer's frames are deterministic: a set, camera and size
// give the same pixels whatever the balancer's policy and lanes (the
// viewer's B and L keys change the timings, never the picture). The
// hardware reference is the driver's pipeline, compared with them in
// Frame.Agree.
//
// A Scene runs on one gpu.Context and is not safe for concurrent use: one
// goroutine calls its methods, whose GL work runs on the context's GL
// thread through gpu.Context.Do. The decimation goroutine touches only the
// CPU mesh and hands its result over under a lock; Options.Wake tells the
// window's loop that it is ready.
package scene
