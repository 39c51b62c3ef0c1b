package scan_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// exactSum is the exact sum of x rounded once to the nearest float32, ties
// to even, in Go (math/big: 2^-149 to 2^128 and 2^31 terms fit 400 bits),
// with ReproducibleSum's rules for infinities, NaN and zero.
func exactSum(x []float32) float32 {
	var pos, neg, nan bool
	sum := new(big.Float).SetPrec(400)
	for _, v := range x {
		switch {
		case v != v:
			nan = true
		case math.IsInf(float64(v), 1):
			pos = true
		case math.IsInf(float64(v), -1):
			neg = true
		default:
			sum.Add(sum, new(big.Float).SetPrec(400).SetFloat64(float64(v)))
		}
	}
	switch {
	case nan || pos && neg:
		return float32(math.NaN())
	case pos:
		return float32(math.Inf(1))
	case neg:
		return float32(math.Inf(-1))
	case sum.Sign() == 0:
		return 0
	}
	f, _ := sum.Float32()
	return f
}

// reproInputs are the inputs of the reproducible sum's tests: random in
// [-1, 1); cancelling (pairs x and -x of every magnitude in shuffled order,
// plus a few tiny values that are the whole sum); huge-range (random
// signs and exponents from the subnormals to the largest, where a float
// loop loses all but the largest terms); and the specials.
func reproInputs(rng *rand.Rand, kind string, n int) []float32 {
	x := make([]float32, n)
	anyExp := func() float32 {
		return math.Float32frombits(rng.Uint32() & 0xFF7FFFFF) // exponent below 255: finite
	}
	switch kind {
	case "random":
		for i := range x {
			x[i] = 2*rng.Float32() - 1
		}
	case "cancelling":
		for i := 0; i+1 < n; i += 2 {
			x[i] = anyExp()
			x[i+1] = -x[i]
		}
		for i := 0; i < n/100+1 && i < n; i++ {
			x[rng.IntN(n)] = math.Float32frombits(rng.Uint32() & 0x807FFFFF) // subnormals
		}
		rng.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
	case "huge-range":
		for i := range x {
			x[i] = anyExp()
		}
	case "overflow":
		for i := range x {
			x[i] = math.MaxFloat32
		}
	case "zeros":
		for i := range x {
			x[i] = float32(math.Copysign(0, -1))
		}
	case "special":
		for i := range x {
			x[i] = anyExp()
		}
		if n > 0 {
			x[rng.IntN(n)] = float32(math.Inf(-1 + 2*rng.IntN(2)))
		}
	}
	return x
}

// The reproducible sum equals the exactly rounded sum, bit for bit, on
// every input kind and edge size, for Scanners of every group size and
// path option (llvmpipe and, in the zink leg, the driver's subgroups:
// the same bits), whatever the order of the input (a shuffle), on every
// run; ReproducibleSumTo leaves the same bits in a guarded element.
func TestReproducibleSum(t *testing.T) {
	c := gputest.Context(t)
	var scanners []*scan.Scanner
	var names []string
	for _, o := range []scan.Options{
		{GroupSize: 8, Vectors: 1, Path: scan.PathLookBack},
		{GroupSize: 32, Vectors: 2, Path: scan.PathReduceThenScan, NoSubgroups: true},
		{},
		{GroupSize: 256},
	} {
		s, err := scan.NewWithOptions(c, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Delete)
		scanners = append(scanners, s)
		names = append(names, fmt.Sprintf("%+v", o))
	}
	rng := gputest.Rand(t)
	tile := 64 * 16 // the default group's tile
	sizes := []int{0, 1, 2, 5, 31, 32, 33, 127, 128, 129, tile - 1, tile, tile + 1, 37*tile + 5, 4096*4*8 + 3}
	if !testing.Short() {
		sizes = append(sizes, 1<<22+1)
	}
	kinds := []string{"random", "cancelling", "huge-range", "overflow", "zeros", "special"}
	for _, n := range sizes {
		for _, kind := range kinds {
			big := n > 100000
			if big && kind != "huge-range" && kind != "cancelling" {
				continue // the large sizes: the two kinds that need the exactness
			}
			x := reproInputs(rng, kind, n)
			want := exactSum(x)
			src := upload(t, c, x)
			perm := append([]float32(nil), x...)
			rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			shuffled := upload(t, c, perm)
			for i, s := range scanners {
				if big && i%2 == 1 {
					continue // the large sizes: groups of 8 and 64
				}
				what := fmt.Sprintf("ReproducibleSum %s n=%d %s", names[i], n, kind)
				for run := 0; run < 2; run++ {
					if got := scan.ReproducibleSum(s, gpu.Array[float32](src)); !sameBits(got, want) {
						t.Fatalf("%s run %d: %v (%#x), want %v (%#x)", what, run, got, math.Float32bits(got), want, math.Float32bits(want))
					}
				}
				if got := scan.ReproducibleSum(s, gpu.Array[float32](shuffled)); !sameBits(got, want) {
					t.Fatalf("%s shuffled: %v, want %v", what, got, want)
				}
				if n > 1000 && i > 0 {
					continue
				}
				g := guarded(t, c, 3, float32(7), nil)
				before := c.ReadBacks()
				scan.ReproducibleSumTo(s, g.View, 1, src)
				if r := c.ReadBacks() - before; r != 0 {
					t.Fatalf("%s: ReproducibleSumTo read back %d times", what, r)
				}
				if got := g.Check(t, what); got[0] != 7 || !sameBits(got[1], want) || got[2] != 7 {
					t.Fatalf("%s: ReproducibleSumTo left %v, want [7 %v 7]", what, got, want)
				}
			}
		}
	}
}

func TestReproducibleSumMisuse(t *testing.T) {
	c := gputest.Context(t)
	s := primScanner(t, c, config{opt: scan.Options{}})
	a := upload(t, c, make([]float32, 4))
	gputest.MustPanic(t, "scan: ReproducibleSumTo: at 4 is out of range of dst's 4 elements", func() { scan.ReproducibleSumTo(s, a, 4, a) })
	gputest.MustPanic(t, "scan: ReproducibleSum: src is nil", func() { scan.ReproducibleSum(s, nil) })
}
