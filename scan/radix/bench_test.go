package radix_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

// benchSizes are the named sizes the benchmarks run at.
var benchSizes = []struct {
	name string
	n    int
}{{"64K", 1 << 16}, {"1M", 1 << 20}, {"16M", 1 << 24}}

func benchKeys(n int) []uint32 {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	k := make([]uint32, n)
	for i := range k {
		k[i] = rng.Uint32()
	}
	return k
}

// BenchmarkSortKeys sorts random uint32 keys on each path; throughput is in
// keys sorted (4 bytes each) per second. Each iteration sorts the sorted
// output of the last: an LSD sort does the same work whatever the order.
func BenchmarkSortKeys(b *testing.B) {
	c := gputest.Context(b)
	for _, sz := range benchSizes {
		if int64(sz.n)*4 > c.Caps().MaxSSBOSize {
			continue
		}
		for _, p := range []radix.Path{radix.PathOneSweep, radix.PathCounts} {
			b.Run(fmt.Sprintf("n=%s/%v", sz.name, p), func(b *testing.B) {
				s := newSorter(b, c, config{opt: radix.Options{Path: p}})
				keys := upload(b, c, benchKeys(sz.n))
				tmp := upload(b, c, make([]uint32, sz.n))
				if err := radix.SortKeys(s, gpu.Array[uint32](keys), tmp, radix.Order{}); err != nil {
					b.Fatal(err)
				}
				c.Finish()
				b.SetBytes(4 * int64(sz.n))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := radix.SortKeys(s, gpu.Array[uint32](keys), tmp, radix.Order{}); err != nil {
						b.Fatal(err)
					}
				}
				c.Finish()
			})
		}
	}
}

// BenchmarkSlicesSort is the CPU's answer at the same sizes: slices.Sort
// of the same keys (a fresh copy each iteration, the copy untimed).
func BenchmarkSlicesSort(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run("n="+sz.name, func(b *testing.B) {
			keys := benchKeys(sz.n)
			work := make([]uint32, sz.n)
			b.SetBytes(4 * int64(sz.n))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				copy(work, keys)
				b.StartTimer()
				slices.Sort(work)
			}
		})
	}
}

func upload[T any](t testing.TB, c *gpu.Context, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBufferFrom(c, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Delete)
	return b
}
