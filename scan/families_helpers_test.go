package scan_test

import (
	"math"
	"math/rand/v2"

	"github.com/dpgl/dpgl/scan"
)

// runKeys returns n keys in runs of random lengths (1 to maxRun) of
// random values drawn from few, so that neighbouring runs may even share a
// key a run apart.
func runKeys[K scan.Elem](rng *rand.Rand, n, maxRun int) []K {
	pool := input[K](rng, "random", 5)
	out := make([]K, 0, n)
	for len(out) < n {
		k := pool[rng.IntN(len(pool))]
		for l := rng.IntN(maxRun) + 1; l > 0 && len(out) < n; l-- {
			out = append(out, k)
		}
	}
	return out
}

// keyInputs are the key layouts the by-key families see: runs of 1 to 3
// and of 1 to 70 keys (across tiles), all equal, all different (random),
// and the narrow and special inputs (NaNs, -0 and +0 are different keys,
// compared by bits).
func keyInputs[K scan.Elem](rng *rand.Rand, n int) map[string][]K {
	return map[string][]K{
		"runs3":   runKeys[K](rng, n, 3),
		"runs70":  runKeys[K](rng, n, 70),
		"equal":   input[K](rng, "equal", n),
		"random":  input[K](rng, "random", n),
		"narrow":  input[K](rng, "narrow", n),
		"special": input[K](rng, "special", n),
	}
}

// cpuHeads returns the head flags of the runs of keys equal bit for bit.
func cpuHeads[K any](keys []K) []uint32 {
	h := make([]uint32, len(keys))
	for i := range keys {
		if i == 0 || !sameBits(keys[i], keys[i-1]) {
			h[i] = 1
		}
	}
	return h
}

// orderedBits is package radix's total order of a key as a uint32 (see
// order.glsl): NaNs last and equal, -0 before +0.
func orderedBits[K scan.Elem](k K) uint32 {
	switch x := any(k).(type) {
	case int32:
		return uint32(x) ^ 0x80000000
	case float32:
		b := math.Float32bits(x)
		if b&0x7FFFFFFF > 0x7F800000 {
			return 0xFFFFFFFF
		}
		if b>>31 != 0 {
			return ^b
		}
		return b ^ 0x80000000
	}
	return uint32(any(k).(uint32))
}

func cmpOrdered[K scan.Elem](a, b K) int {
	x, y := orderedBits(a), orderedBits(b)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
