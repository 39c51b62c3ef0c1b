package isosurface

import "github.com/dpgl/dpgl/gpu"

// ExtractOnGPU reports whether a program rendering on a driver with caps
// should extract its isosurfaces with the GPU Extractor (true), or with
// Extract on the CPU and upload the mesh (false). Both make the same
// mesh; the choice is speed alone (TUNING.md has the measurements).
//
// A software renderer (llvmpipe, or zink over lavapipe) runs the GPU
// extractor's three dispatches on the same cores Extract uses, through a
// JIT's vector lanes and a scan, and loses: on llvmpipe the perforator at
// 128^3 took 223 ms against 77 ms for the serial CPU reference, which the
// parallel Extract halves again. A real GPU extracts at memory bandwidth,
// and its mesh is already where the renderer reads it.
func ExtractOnGPU(caps *gpu.Caps) bool { return !caps.Software }
