package rasterizer

import "github.com/dpgl/dpgl/gpu"

// ImageBuffer is the last frame's image where it lies on the GPU: Width x
// Height packed RGBA8 pixels (R in the low byte), bottom row first, what
// Pixels downloads. A display copies it into a texture without a read-back
// (gpu.Texture.CopyFromBuffer, which issues the barrier the copy needs).
// The range is valid until the next SetOptions that changes the size.
func (r *Renderer) ImageBuffer() gpu.Range[uint32] {
	return r.rgba.Slice(0, r.opts.Width*r.opts.Height)
}
