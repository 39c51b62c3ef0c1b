package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// record is a 12-byte record, to check that Send and Gather move whole
// records of any size that is a multiple of 4 bytes.
type record struct {
	A uint32
	B float32
	C int32
}

func TestSendGather(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	rng := gputest.Rand(t)
	for _, n := range []int{0, 1, 2, 255, 256, 257, 70001} {
		for _, m := range []int{1, n/2 + 1, n + 3} {
			// Indices: many collisions (m < n), some out of range, some
			// 0xFFFFFFFF ("do not send").
			index := make([]uint32, n)
			for i := range index {
				switch rng.IntN(10) {
				case 0:
					index[i] = 0xFFFFFFFF
				case 1:
					index[i] = uint32(m + rng.IntN(5))
				default:
					index[i] = uint32(rng.IntN(m))
				}
			}
			srcU := randVals[uint32](rng, n)
			srcR := make([]record, n)
			for i := range srcR {
				srcR[i] = record{uint32(i), float32(i) / 2, -int32(i)}
			}
			sendCase(t, c, s, fmt.Sprintf("Send uint32 n=%d m=%d", n, m), srcU, index, m, 0xDEADBEEF)
			sendCase(t, c, s, fmt.Sprintf("Send record n=%d m=%d", n, m), srcR, index, m, record{7, 7, 7})
			// Gather reads from a source of m elements through the same
			// indices.
			gatherCase(t, c, s, fmt.Sprintf("Gather uint32 n=%d m=%d", n, m), randVals[uint32](rng, m), index, uint32(0xDEADBEEF))
			table := make([]record, m)
			for i := range table {
				table[i] = record{uint32(i) * 3, float32(i), int32(i) - 5}
			}
			gatherCase(t, c, s, fmt.Sprintf("Gather record n=%d m=%d", n, m), table, index, record{7, 7, 7})
		}
	}
}

// sendCase runs Send and checks it against a loop in which the highest i
// writes last, so wins.
func sendCase[T comparable](t *testing.T, c *gpu.Context, s *scan.Scanner, what string, src []T, index []uint32, m int, sent T) {
	t.Helper()
	want := make([]T, m)
	for j := range want {
		want[j] = sent
	}
	for i, j := range index {
		if int(j) < m {
			want[j] = src[i]
		}
	}
	for rep := 0; rep < 2; rep++ { // the second run checks that the scratch was left clear
		dst := guarded(t, c, m, sent, nil)
		scan.Send(s, dst.View, gpu.Array[T](upload(t, c, src)), gpu.Array[uint32](upload(t, c, index)))
		got := dst.Check(t, what)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("%s (run %d): dst[%d] = %v, want %v", what, rep, j, got[j], want[j])
			}
		}
	}
}

func gatherCase[T comparable](t *testing.T, c *gpu.Context, s *scan.Scanner, what string, src []T, index []uint32, sent T) {
	t.Helper()
	n := len(index)
	want := make([]T, n)
	for i, j := range index {
		want[i] = sent
		if int(j) < len(src) {
			want[i] = src[j]
		}
	}
	dst := guarded(t, c, n, sent, nil)
	scan.Gather(s, dst.View, gpu.Array[T](upload(t, c, src)), gpu.Array[uint32](upload(t, c, index)))
	got := dst.Check(t, what)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: dst[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestSendDistinct(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	rng := gputest.Rand(t)
	for _, n := range []int{0, 1, 255, 256, 257, 70001} {
		// A permutation of n+5 slots, of which n receive; every tenth
		// element sends nowhere.
		m := n + 5
		perm := rng.Perm(m)
		index := make([]uint32, n)
		for i := range index {
			index[i] = uint32(perm[i])
			if i%10 == 9 {
				index[i] = 0xFFFFFFFF
			}
		}
		src := make([]record, n)
		for i := range src {
			src[i] = record{uint32(i), float32(i), int32(-i)}
		}
		want := make([]record, m)
		for j := range want {
			want[j] = record{7, 7, 7}
		}
		for i, j := range index {
			if int(j) < m {
				want[j] = src[i]
			}
		}
		dst := guarded(t, c, m, record{7, 7, 7}, nil)
		scan.SendDistinct(s, dst.View, gpu.Array[record](upload(t, c, src)), gpu.Array[uint32](upload(t, c, index)))
		got := dst.Check(t, "SendDistinct")
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("SendDistinct n=%d: dst[%d] = %v, want %v", n, j, got[j], want[j])
			}
		}
	}
}
