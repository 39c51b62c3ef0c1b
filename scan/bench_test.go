package scan_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// benchSizes are the named sizes the benchmarks run at.
var benchSizes = []struct {
	name string
	n    int
}{{"64K", 1 << 16}, {"1M", 1 << 20}, {"16M", 1 << 24}}

// benchData returns fixed-seed values and head flags (segments of 64 on
// average) of n elements on the GPU, freed with the benchmark.
func benchData(b *testing.B, c *gpu.Context, n int) (vals, heads, dst *gpu.Buffer[uint32]) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	v := make([]uint32, n)
	h := make([]uint32, n)
	for i := range v {
		v[i] = rng.Uint32()
		if rng.IntN(64) == 0 {
			h[i] = 1
		}
	}
	return upload(b, c, v), upload(b, c, h), upload(b, c, make([]uint32, n))
}

// benchPaths runs f on a Scanner for each path, at each size; throughput is
// in bytes read and written by the op at its minimum (8 per element).
func benchPaths(b *testing.B, f func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32])) {
	c := gputest.Context(b)
	for _, sz := range benchSizes {
		if int64(sz.n)*4 > c.Caps().MaxSSBOSize {
			continue
		}
		for _, p := range []scan.Path{scan.PathLookBack, scan.PathReduceThenScan} {
			b.Run(fmt.Sprintf("n=%s/%v", sz.name, p), func(b *testing.B) {
				s, err := scan.NewWithOptions(c, scan.Options{Path: p})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Delete()
				vals, heads, dst := benchData(b, c, sz.n)
				f(s, vals, heads, dst) // programs and scratch
				c.Finish()
				b.SetBytes(8 * int64(sz.n))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f(s, vals, heads, dst)
				}
				c.Finish()
			})
		}
	}
}

func BenchmarkExclusiveScan(b *testing.B) {
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.ExclusiveScan(s, gpu.Array[uint32](dst), vals, scan.Add, 0)
	})
}

func BenchmarkSegmentedCopy(b *testing.B) {
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.SegmentedCopy(s, gpu.Array[uint32](dst), vals, heads)
	})
}

func BenchmarkSegmentedInclusiveScan(b *testing.B) {
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.SegmentedInclusiveScan(s, gpu.Array[uint32](dst), vals, heads, scan.Add)
	})
}

func BenchmarkCompactTo(b *testing.B) {
	count := upload(b, gputest.Context(b), make([]uint32, 1))
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.CompactTo(s, gpu.Array[uint32](dst), vals, heads, count, 0)
	})
}

func BenchmarkReduceTo(b *testing.B) {
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.ReduceTo(s, gpu.Array[uint32](dst), 0, vals, scan.Max)
	})
}

func BenchmarkSend(b *testing.B) {
	benchPaths(b, func(s *scan.Scanner, vals, heads, dst *gpu.Buffer[uint32]) {
		scan.Send(s, gpu.Array[uint32](dst), vals, heads) // indices 0 and 1: heavy collisions
	})
}
