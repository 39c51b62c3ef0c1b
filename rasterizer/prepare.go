package rasterizer

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// prepareStep names one of shaders/rasterizer/prepare.comp's small
// per-element kernels around the loops (its STEP; the GLSL defines the
// same names, TestPrepareStepsMatchGLSL checks the numbers).
type prepareStep int

const (
	// scanProblems makes each set-up triangle a processor of the
	// scan-conversion loop: its rows the workload, (triangle, first span)
	// the problem.
	scanProblems prepareStep = iota
	// spanProblems makes each span a processor of the z-buffer loop: its
	// length the workload, its index the problem.
	spanProblems
	// clearVisibility clears the 64-bit visibility buffer: no surface
	// anywhere (the 32-bit path fills its two buffers instead).
	clearVisibility
	// extractPrims takes each pixel's primitive id out of the 64-bit
	// visibility words (the 64-bit path).
	extractPrims
	// mergeWinners merges the emulated 64-bit path's winners into the
	// visibility words after a batch.
	mergeWinners
	// mergeKeys merges the 32-bit path's winning tests' keys into the
	// depth and id buffers after a batch.
	mergeKeys

	numPrepareSteps
)

var prepareStepNames = [numPrepareSteps]string{"SCAN_PROBLEMS", "SPAN_PROBLEMS", "CLEAR_VISIBILITY", "EXTRACT_PRIMS", "MERGE_WINNERS", "MERGE_KEYS"}

func (s prepareStep) String() string { return prepareStepNames[s] }

// perInvocation is the elements an invocation of step s takes: four where
// prepare.comp loads and stores four elements' words as one vector.
func (s prepareStep) perInvocation() int {
	if s == scanProblems || s == spanProblems || s == mergeKeys {
		return 4
	}
	return 1
}

// prepareKernels holds the steps the renderer's visibility path uses
// (clearVisibility and extractPrims only on the 64-bit path, mergeWinners
// only on its emulation, mergeKeys only on the 32-bit path; nil otherwise).
type prepareKernels struct {
	c    *gpu.Context
	prog [numPrepareSteps]*gpu.Program
}

func newPrepareKernels(c *gpu.Context, vis64, emulate bool) (*prepareKernels, error) {
	k := &prepareKernels{c: c}
	for s := prepareStep(0); s < numPrepareSteps; s++ {
		if (s == clearVisibility || s == extractPrims) && !vis64 || s == mergeWinners && !emulate || s == mergeKeys && vis64 {
			continue
		}
		defs := map[string]string{"STEP": strconv.Itoa(int(s)), "VIS64": "0"}
		if vis64 && (s == clearVisibility || s == extractPrims) {
			defs["VIS64"] = "1"
		}
		p, err := c.Program("rasterizer/prepare.comp", defs)
		if err != nil {
			return nil, err
		}
		k.prog[s] = p
	}
	return k, nil
}

// run dispatches step s over n elements, its buffers bound by the caller,
// and issues the barrier that makes its writes visible to the next
// stage's storage reads. On the GL thread.
func (k *prepareKernels) run(s prepareStep, n int) {
	p := k.prog[s]
	p.SetUint("n", uint32(n))
	if s == mergeKeys {
		p.SetUint("boxQuads", 0)
	}
	p.DispatchItems(n, s.perInvocation())
	k.c.Barrier(gpu.BarrierStorage)
}

// mergeBox runs mergeKeys over the pixels [box[0], box[2]) x [box[1],
// box[3]) of a w x h image (w and box[0] multiples of 4), where the
// batch's every test lies: the rest hold no winner. On the GL thread.
func (k *prepareKernels) mergeBox(box [4]int, w, h int) {
	p := k.prog[mergeKeys]
	quads := (box[2] - box[0] + 3) / 4
	p.SetUint("n", uint32(w*h))
	p.SetUint("boxQuads", uint32(quads))
	p.SetUvec2("boxOrigin", uint32(box[0]), uint32(box[1]))
	p.SetUint("width", uint32(w))
	p.DispatchInvocations(quads * (box[3] - box[1]))
	k.c.Barrier(gpu.BarrierStorage)
}
