package volume

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// refWeights is the weight of each of src samples in output sample i of
// dst along one axis, by the definition (the average of the tent functions
// over the footprint), integrated numerically: an independent check of
// axisTaps' closed form.
func refWeights(src, dst, i int) []float64 {
	w := make([]float64, src)
	if dst == 1 {
		w[0] = 1
		return w
	}
	r := float64(src-1) / float64(dst-1)
	x := float64(i) * r
	h := 0.0
	if r > 1 {
		h = math.Min(r/2, math.Min(x, float64(src-1)-x))
	}
	hat := func(t float64) float64 { return math.Max(0, 1-math.Abs(t)) }
	for j := range w {
		if h < 1e-12 {
			w[j] = hat(x - float64(j))
			continue
		}
		const steps = 4000
		for k := 0; k < steps; k++ {
			t := x - h + 2*h*(float64(k)+0.5)/steps
			w[j] += hat(t-float64(j)) / steps
		}
	}
	return w
}

// refResample is Resample as a plain loop: every output sample sums every
// source sample with its weight, finite samples only.
func refResample(v *Volume, dims [3]int) []float32 {
	out := make([]float32, dims[0]*dims[1]*dims[2])
	for z := 0; z < dims[2]; z++ {
		wz := refWeights(v.Dims[2], dims[2], z)
		for y := 0; y < dims[1]; y++ {
			wy := refWeights(v.Dims[1], dims[1], y)
			for x := 0; x < dims[0]; x++ {
				wx := refWeights(v.Dims[0], dims[0], x)
				var sv, sw float64
				for k := 0; k < v.Dims[2]; k++ {
					for j := 0; j < v.Dims[1]; j++ {
						for i := 0; i < v.Dims[0]; i++ {
							s := v.At(i, j, k)
							if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
								continue
							}
							w := wx[i] * wy[j] * wz[k]
							sv += w * float64(s)
							sw += w
						}
					}
				}
				o := x + dims[0]*(y+dims[1]*z)
				if sw > 1e-9 {
					out[o] = float32(sv / sw)
				} else {
					out[o] = float32(math.NaN())
				}
			}
		}
	}
	return out
}

// TestResampleMatchesLoop compares Resample with the plain loop on random
// volumes with NaN and ±Inf samples, sides of 1, shrinking and enlarging.
func TestResampleMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	sides := []int{1, 2, 3, 5, 8, 13}
	for trial := 0; trial < 60; trial++ {
		dims := [3]int{sides[rng.IntN(6)], sides[rng.IntN(6)], sides[rng.IntN(6)]}
		v := New(dims, [3]float32{0.5, 1, 2}, [3]float32{-1, 0, 3})
		for i := range v.Data {
			v.Data[i] = rng.Float32()
			if rng.IntN(10) == 0 {
				v.Data[i] = [...]float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}[rng.IntN(3)]
			}
		}
		n := []int{2, 3, 4, 7, 16}[rng.IntN(5)]
		r, err := Resample(v, n)
		if err != nil {
			t.Fatal(err)
		}
		if longest := max(r.Dims[0], r.Dims[1], r.Dims[2]); longest != n && max(dims[0], dims[1], dims[2]) > 1 {
			t.Fatalf("%v to %d: dims %v", dims, n, r.Dims)
		}
		for a := 0; a < 3; a++ {
			if (dims[a] == 1) != (r.Dims[a] == 1) {
				t.Fatalf("%v to %d: dims %v: a side of 1 must stay 1, and only it", dims, n, r.Dims)
			}
		}
		want := refResample(v, r.Dims)
		for i, got := range r.Data {
			w := want[i]
			if math.IsNaN(float64(w)) != math.IsNaN(float64(got)) || math.Abs(float64(got-w)) > 2e-4 {
				t.Fatalf("%v to %v: sample %d = %v, the loop %v", dims, r.Dims, i, got, w)
			}
		}
		lo0, hi0 := v.Bounds()
		lo1, hi1 := r.Bounds()
		for a := 0; a < 3; a++ {
			if lo0[a] != lo1[a] || math.Abs(float64(hi1[a]-hi0[a])) > 1e-5 {
				t.Fatalf("%v to %v: box %v..%v, want %v..%v", dims, r.Dims, lo1, hi1, lo0, hi0)
			}
		}
	}
}

// TestResampleLinear: a linear field is reproduced exactly, shrinking and
// enlarging, and the box is kept.
func TestResampleLinear(t *testing.T) {
	v := New([3]int{9, 5, 17}, [3]float32{0.5, 1, 0.25}, [3]float32{1, 2, 3})
	lin := func(p [3]float32) float32 { return 2*p[0] - p[1] + 0.5*p[2] + 1 }
	for z := 0; z < 17; z++ {
		for y := 0; y < 5; y++ {
			for x := 0; x < 9; x++ {
				v.Data[v.Index(x, y, z)] = lin(v.Position(x, y, z))
			}
		}
	}
	for n, dims := range map[int][3]int{9: {5, 3, 9}, 6: {4, 2, 6}, 33: {17, 9, 33}} {
		r, err := Resample(v, n)
		if err != nil || r.Dims != dims {
			t.Fatalf("to %d: dims %v (%v), want %v", n, r.Dims, err, dims)
		}
		for z := 0; z < r.Dims[2]; z++ {
			for y := 0; y < r.Dims[1]; y++ {
				for x := 0; x < r.Dims[0]; x++ {
					if got, want := r.At(x, y, z), lin(r.Position(x, y, z)); math.Abs(float64(got-want)) > 1e-4 {
						t.Fatalf("to %d at %d,%d,%d: %v, want %v", n, x, y, z, got, want)
					}
				}
			}
		}
	}
}

// TestResampleNoAliasing: shrinking averages what each output sample
// covers. A checkerboard of 0 and 1 (the highest frequency a grid holds)
// becomes an even grey, where point sampling would keep 0s and 1s; and a
// tilted step edge becomes a ramp in (almost) every row, where point
// sampling gives the staircase seen on ch2's scalp at -res 64.
func TestResampleNoAliasing(t *testing.T) {
	v := New([3]int{64, 64, 64}, [3]float32{1, 1, 1}, [3]float32{})
	for z := 0; z < 64; z++ {
		for y := 0; y < 64; y++ {
			for x := 0; x < 64; x++ {
				v.Data[v.Index(x, y, z)] = float32((x + y + z) & 1)
			}
		}
	}
	r, err := Resample(v, 16)
	if err != nil {
		t.Fatal(err)
	}
	for z := 1; z < 15; z++ {
		for y := 1; y < 15; y++ {
			for x := 1; x < 15; x++ {
				if s := r.At(x, y, z); math.Abs(float64(s)-0.5) > 0.05 {
					t.Fatalf("checkerboard at %d,%d,%d: %v, want 0.5±0.05", x, y, z, s)
				}
			}
		}
	}

	step := New([3]int{96, 96, 96}, [3]float32{1, 1, 1}, [3]float32{})
	for z := 0; z < 96; z++ {
		for y := 0; y < 96; y++ {
			for x := 0; x < 96; x++ {
				if float64(x)+0.3*float64(y)+0.11*float64(z) > 40.5 {
					step.Data[step.Index(x, y, z)] = 1
				}
			}
		}
	}
	r, err = Resample(step, 24)
	if err != nil {
		t.Fatal(err)
	}
	ramps, rows := 0, 0
	for z := 1; z < 23; z++ {
		for y := 1; y < 23; y++ {
			rows++
			ramp := false
			for x := 0; x < 24; x++ {
				s := r.At(x, y, z)
				if x > 0 && s < r.At(x-1, y, z)-1e-6 {
					t.Fatalf("step: row %d,%d falls at x %d", y, z, x)
				}
				ramp = ramp || s > 0.05 && s < 0.95
			}
			if ramp {
				ramps++
			}
		}
	}
	if ramps < rows*95/100 {
		t.Fatalf("step edge: only %d of %d rows cross it through a grey sample", ramps, rows)
	}
}

func TestResampleErrors(t *testing.T) {
	v := Sphere().SampleCube(5)
	if _, err := Resample(v, 1); err == nil || !strings.Contains(err.Error(), "1 samples along the longest side, want at least 2") {
		t.Fatalf("n = 1: %v", err)
	}
	if _, err := Resample(v, 100000); err == nil || !strings.Contains(err.Error(), "100000x100000x100000") {
		t.Fatalf("n = 100000: %v", err)
	}
	one := New([3]int{1, 1, 1}, [3]float32{1, 1, 1}, [3]float32{})
	if r, err := Resample(one, 7); err != nil || r.Dims != one.Dims {
		t.Fatalf("1x1x1: %v %v", r, err)
	}
}
