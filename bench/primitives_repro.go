package main

import (
	"fmt"
	"math"
	"math/big"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/scan"
)

// The rows of issue 39's additions: the reproducible float sum beside the
// plain float reduction it costs more than, and a count left on the GPU
// (SelectIfTo) beside the count read back (select-if f32).
func init() {
	primBenches = append(primBenches,
		primBench{"reduce add f32 (plain)", func(e *primEnv) (func(), func(), func() error) {
			var got float32
			return func() { got = scan.Reduce(e.s, gpu.Array[float32](e.gFloats), scan.Add) },
				func() { plainSum(e.floats) },
				func() error {
					// Float add regroups: within 100 ulps of the
					// sum of magnitudes (scan's Determinism; the
					// inputs are positive), as its tests bound it.
					// The loop's own sum is no closer at 2^24.
					exact := exactSum32(e.floats)
					if d := math.Abs(float64(got - exact)); d > 100*float64(ulp32(exact)) {
						return fmt.Errorf("bench: primitives: reduce add f32: %v, the exact sum is %v", got, exact)
					}
					return nil
				}
		}},
		primBench{"reproducible sum f32", func(e *primEnv) (func(), func(), func() error) {
			var got, want float32
			return func() { got = scan.ReproducibleSum(e.s, gpu.Array[float32](e.gFloats)) },
				func() { want = plainSum(e.floats) },
				func() error {
					// The loop is the peer for time; the answer is
					// the exact sum, rounded once.
					exact := exactSum32(e.floats)
					if math.Float32bits(got) != math.Float32bits(exact) {
						return fmt.Errorf("bench: primitives: reproducible sum: %v, the exact sum rounded is %v (a loop gives %v)", got, exact, want)
					}
					return nil
				}
		}},
		primBench{"select-if To f32", func(e *primEnv) (func(), func(), func() error) {
			var want []uint32
			var err error
			count := e.dst2U.Slice(0, 1)
			return func() {
					err = scan.SelectIfTo(e.s, gpu.Array[float32](e.dstF), e.gFloats, "x < 0.5", count, 0)
				},
				func() { want = selectBelowHalf(want, e.floats) },
				func() error { return checkSelected("select-if To", err, int(e.dst2U.Get(0)), e.dstF, want) }
		}},
	)
}

// exactSum32 is the exact sum of finite x rounded once to float32.
func exactSum32(x []float32) float32 {
	sum := new(big.Float).SetPrec(400)
	for _, v := range x {
		sum.Add(sum, big.NewFloat(float64(v)))
	}
	f, _ := sum.Float32()
	return f
}

// selectBelowHalf is the select-if rows' loop: the bits of the floats
// below 0.5, in order, into want's storage.
func selectBelowHalf(want []uint32, floats []float32) []uint32 {
	want = want[:0]
	for _, x := range floats {
		if x < 0.5 {
			want = append(want, math.Float32bits(x))
		}
	}
	return want
}

// checkSelected checks a select-if row's answer: no error, the count, and
// the first len(want) elements of dst bit for bit.
func checkSelected(what string, err error, count int, dst *gpu.Buffer[float32], want []uint32) error {
	if err != nil {
		return err
	}
	if err := equalCount(what, count, len(want)); err != nil {
		return err
	}
	g := make([]float32, len(want))
	dst.Read(0, g)
	for i := range g {
		if math.Float32bits(g[i]) != want[i] {
			return fmt.Errorf("bench: primitives: %s: [%d] differs", what, i)
		}
	}
	return nil
}

// plainSum is the plain float loop, left to right.
func plainSum(x []float32) float32 {
	var s float32
	for _, v := range x {
		s += v
	}
	return s
}

// ulp32 is the spacing of float32s at x.
func ulp32(x float32) float32 {
	x = float32(math.Abs(float64(x)))
	return math.Nextafter32(x, float32(math.Inf(1))) - x
}
