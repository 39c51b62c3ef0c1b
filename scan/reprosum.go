package scan

import (
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// ReproducibleSum returns the sum of src's floats rounded once: the exact
// sum, as if added in infinite precision, rounded to the nearest float32
// (ties to even), with an error of at most half an ulp of the result.
// Every float32 is an integer number of 2^-149 below 2^128, so the kernel
// adds them as integers exactly (shaders/scan/reprosum.comp: 20 digits of
// 16 bits per invocation, the work group's and the groups' digits added
// as integers) and rounds at the end. Integer addition is associative,
// so the bits depend on nothing but the multiset of inputs: not the order,
// the Scanner's group size or path options, nor the driver. The exact
// sum of zeros is +0 (also of -0s, which a plain float loop sums to -0); a
// NaN, or infinities of both signs, give NaN, and infinities of one sign
// that infinity; a finite sum beyond the largest float rounds to an
// infinity as IEEE addition does.
//
// Cost: two passes (one for up to one tile of 1024 elements at the
// default group size), the input read once; scratch: 21 words per tile.
// Each element takes some 20 integer operations where Reduce's float Add
// takes one, which the bench's primitives command measures. It waits for
// the GPU.
func ReproducibleSum(s *Scanner, src gpu.Array[float32]) float32 {
	const fn = "ReproducibleSum"
	s.live(fn)
	n := array(s, fn, "src", src)
	var v float32
	s.c.Do(func() {
		res := s.grow(fn, &s.result, 4)
		s.reproSum(fn, src, n, res, 0)
		v = fromBits[float32](res.Get(0))
	})
	return v
}

// ReproducibleSumTo is ReproducibleSum leaving the sum in dst[at] instead
// of returning it, without a round trip to the host; the other elements of
// dst are left alone. dst may overlap src.
func ReproducibleSumTo(s *Scanner, dst gpu.Array[float32], at int, src gpu.Array[float32]) {
	const fn = "ReproducibleSumTo"
	s.live(fn)
	checkAt(fn, array(s, fn, "dst", dst), at)
	n := array(s, fn, "src", src)
	s.c.Do(func() { s.reproSum(fn, src, n, dst, at) })
}

// reproItems is reprosum.comp's ITEMS: 16-byte vectors per invocation.
const reproItems = 4

// reproWords is reprosum.comp's WORDS: a group's digits and flags.
const reproWords = 21

// reproGroup bounds reprosum.comp's group size: its shared memory holds
// reproWords ints per invocation.
const reproGroup = 256

// reproSum runs reprosum.comp's passes, leaving the rounded sum's bits in
// dst[at]. It runs on the GL thread.
func (s *Scanner) reproSum(fn string, src gpu.Storage, n int, dst gpu.Storage, at int) {
	c := s.c
	wg := min(s.primGroup, reproGroup)
	tile := wg * reproItems * 4
	groups := max(1, ceilDiv(n, tile))
	d := map[string]string{"WG_SIZE": strconv.Itoa(wg), "ITEMS": strconv.Itoa(reproItems), "PASS": "0"}
	partial := s.scratch(fn, scratchPos, groups*reproWords)
	bind := func(p *gpu.Program) {
		c.BindStorage(0, src)
		c.BindStorage(1, src)
		c.BindStorage(2, partial)
		c.BindStorage(3, dst)
		p.SetUint("at", uint32(at))
	}
	p := s.primProgram("scan/reprosum.comp", d)
	bind(p)
	p.SetUint("n", uint32(n))
	p.SetUint("single", b2u(groups == 1))
	p.Dispatch1D(groups)
	plan := Plan{Path: PathReduceThenScan, Levels: 1, Dispatches: 1}
	if groups > 1 {
		c.Barrier(gpu.BarrierStorage) // pass 1 reads the groups' digits
		d["PASS"] = "1"
		p = s.primProgram("scan/reprosum.comp", d)
		bind(p)
		p.SetUint("n", uint32(groups))
		p.Dispatch1D(1)
		plan.Levels, plan.Dispatches = 2, 2
	}
	c.Barrier(gpu.BarrierStorage)
	s.setPlan(plan)
}
