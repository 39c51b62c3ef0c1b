package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

func TestMisuse(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	buf := func(n int) *gpu.Buffer[uint32] { return upload(t, c, make([]uint32, n)) }
	a, b, six := buf(5), buf(5), buf(6)
	A := func(x *gpu.Buffer[uint32]) gpu.Array[uint32] { return x }

	gputest.MustPanic(t, "scan: ExclusiveScan: s is nil", func() { scan.ExclusiveScan(nil, A(a), A(b), scan.Add, 0) })
	gputest.MustPanic(t, "scan: InclusiveScan: dst is nil", func() { scan.InclusiveScan(s, nil, A(b), scan.Add) })
	gputest.MustPanic(t, "scan: InclusiveScan: src is nil", func() { scan.InclusiveScan(s, A(a), A((*gpu.Buffer[uint32])(nil)), scan.Add) })
	gputest.MustPanic(t, "scan: InclusiveScan: src is nil", func() { scan.InclusiveScan(s, A(a), gpu.Range[uint32]{}, scan.Add) })
	gputest.MustPanic(t, "scan: ExclusiveScan: src has 6 elements but dst has 5", func() { scan.ExclusiveScan(s, A(a), A(six), scan.Add, 0) })
	gputest.MustPanic(t, "scan: ExclusiveScan: op 7 is not Add, Max, Min, And, Or or Xor", func() { scan.ExclusiveScan(s, A(a), A(b), scan.Op(7), 0) })

	big := buf(64)
	gputest.MustPanic(t, "scan: ExclusiveScan: dst and src overlap without being the same range", func() {
		scan.ExclusiveScan(s, gpu.Array[uint32](big.Slice(0, 16)), gpu.Array[uint32](big.Slice(8, 16)), scan.Add, 0)
	})
	if al := c.Caps().SSBOOffsetAlignment; al > 4 {
		gputest.MustPanic(t, "scan: Reduce: src starts at byte offset 4, not a multiple", func() {
			scan.Reduce(s, gpu.Array[uint32](big.Slice(1, 8)), scan.Add)
		})
	}
	dead := buf(5)
	dead.Delete()
	gputest.MustPanic(t, "scan: CountNonzero: src was deleted", func() { scan.CountNonzero(s, dead) })

	gputest.MustPanic(t, "scan: SegmentedExclusiveScan: flags has 6 elements but dst has 5", func() {
		scan.SegmentedExclusiveScan(s, A(a), A(b), A(six), scan.Add)
	})
	gputest.MustPanic(t, "scan: SegmentedInclusiveScan: dst and flags overlap", func() {
		scan.SegmentedInclusiveScan(s, A(a), A(b), A(a), scan.Max)
	})
	bytes3 := upload(t, c, make([][3]uint8, 5))
	gputest.MustPanic(t, "scan: SegmentedCopy: element type [3]uint8 has 3 bytes, not a multiple of 4", func() {
		scan.SegmentedCopy(s, gpu.Array[[3]uint8](bytes3), gpu.Array[[3]uint8](bytes3), A(b))
	})
	gputest.MustPanic(t, "scan: ReduceTo: at 5 is out of range of dst's 5 elements", func() { scan.ReduceTo(s, A(a), 5, A(b), scan.Min) })
	gputest.MustPanic(t, "scan: CountNonzeroTo: at -1 is out of range", func() { scan.CountNonzeroTo(s, A(a), -1, A(b)) })
	gputest.MustPanic(t, "scan: Compact: dst and src overlap", func() { scan.Compact(s, A(a), A(a), A(b)) })
	gputest.MustPanic(t, "scan: Compact: flags has 6 elements but src has 5", func() { scan.Compact(s, A(a), A(b), A(six)) })
	gputest.MustPanic(t, "scan: CompactTo: dst and count overlap", func() { scan.CompactTo(s, A(a), A(b), A(b2(t, c)), A(a), 0) })
	gputest.MustPanic(t, "scan: CompactTo: flags and count overlap", func() { scan.CompactTo(s, A(six), A(b), A(a), A(a), 0) })
	gputest.MustPanic(t, "scan: Send: index has 6 elements but src has 5", func() { scan.Send(s, A(a), A(b), A(six)) })
	gputest.MustPanic(t, "scan: Send: dst and index overlap", func() { scan.Send(s, A(a), A(b), A(a)) })
	gputest.MustPanic(t, "scan: SendDistinct: dst and src overlap", func() { scan.SendDistinct(s, A(a), A(a), A(b)) })
	gputest.MustPanic(t, "scan: Gather: index has 5 elements but dst has 6", func() { scan.Gather(s, A(six), A(b), A(a)) })
	gputest.MustPanic(t, "scan: Gather: dst and src overlap", func() { scan.Gather(s, A(a), A(a), A(b)) })

	gputest.MustPanic(t, "scan: NewWithOptions: o.GroupSize 100 is not a power of two", func() {
		scan.NewWithOptions(c, scan.Options{GroupSize: 100})
	})
	gputest.MustPanic(t, "scan: NewWithOptions: o.Vectors 17 is not in 1..16", func() { scan.NewWithOptions(c, scan.Options{Vectors: 17}) })
	gputest.MustPanic(t, "scan: NewWithOptions: o.Path 9 is not a Path", func() { scan.NewWithOptions(c, scan.Options{Path: 9}) })
	gputest.MustPanic(t, "scan: New: c is nil", func() { scan.New(nil) })

	gone, _ := scan.New(c)
	gone.Delete()
	gputest.MustPanic(t, "scan: Reduce: s was deleted", func() { scan.Reduce(gone, A(a), scan.Add) })

	// Nothing went wrong on the GPU meanwhile: a real call still works.
	a.Write(0, []uint32{1, 2, 3, 4, 5})
	if got := scan.Reduce(s, A(a), scan.Add); got != 15 {
		t.Fatalf("Reduce after the misuse = %d, want 15", got)
	}
}

func b2(t *testing.T, c *gpu.Context) *gpu.Buffer[uint32] { return upload(t, c, make([]uint32, 5)) }

// TestNoLeaks checks that a Scanner frees all its scratch, and that calls
// after the first at a size allocate nothing.
func TestNoLeaks(t *testing.T) {
	c := gputest.Context(t)
	before := c.Live()
	var ss []*scan.Scanner
	for _, p := range []scan.Path{scan.PathReduceThenScan, scan.PathLookBack} {
		s, err := scan.NewWithOptions(c, scan.Options{Path: p, GroupSize: 8, Vectors: 1})
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	rng := gputest.Rand(t)
	n := 5000
	src, _ := gpu.NewBufferFrom(c, randVals[uint32](rng, n))
	flags, _ := gpu.NewBufferFrom(c, randHeads(rng, n, 4))
	dst, _ := gpu.NewBuffer[uint32](c, n)
	all := func() {
		for _, s := range ss {
			scan.ExclusiveScan(s, gpu.Array[uint32](dst), src, scan.Add, 0)
			scan.SegmentedInclusiveScan(s, gpu.Array[uint32](dst), src, flags, scan.Min)
			scan.SegmentedCopy(s, gpu.Array[uint32](dst), src, flags)
			scan.Compact(s, gpu.Array[uint32](dst), src, flags)
			scan.Send(s, gpu.Array[uint32](dst), src, flags)
			scan.Gather(s, gpu.Array[uint32](dst), src, flags)
			scan.Reduce(s, gpu.Array[uint32](src), scan.Max)
		}
	}
	all()
	made := c.Made()
	all()
	if again := c.Made(); again != made {
		t.Fatalf("second round of calls made GL objects: %v, then %v", made, again)
	}
	for _, s := range ss {
		s.Delete()
	}
	for _, b := range []*gpu.Buffer[uint32]{src, flags, dst} {
		b.Delete()
	}
	if after := c.Live(); after[gpu.KindBuffer] != before[gpu.KindBuffer] {
		t.Fatalf("live buffers %d before, %d after", before[gpu.KindBuffer], after[gpu.KindBuffer])
	}
}

// TestConcurrentUse runs one Scanner from several goroutines at once: the
// calls share its scratch and its host result word, so each must run whole
// on the GL thread.
func TestConcurrentUse(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.NewWithOptions(c, scan.Options{GroupSize: 8, Vectors: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	const workers = 4
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		n := 1000 + 777*w
		in := make([]uint32, n)
		flags := make([]uint32, n)
		for i := range in {
			in[i] = uint32(i*w + 1)
			flags[i] = uint32(i % (w + 2))
		}
		src, dst, f := upload(t, c, in), upload(t, c, make([]uint32, n)), upload(t, c, flags)
		go func() {
			for rep := 0; rep < 20; rep++ {
				scan.InclusiveScan(s, gpu.Array[uint32](dst), src, scan.Add)
				got := dst.Download()
				var sum uint32
				for i, x := range in {
					sum += x
					if got[i] != sum {
						errs <- fmt.Errorf("worker %d: dst[%d] = %d, want %d", w, i, got[i], sum)
						return
					}
				}
				if r := scan.Reduce(s, gpu.Array[uint32](src), scan.Add); r != sum {
					errs <- fmt.Errorf("worker %d: Reduce = %d, want %d", w, r, sum)
					return
				}
				if k := scan.Compact(s, gpu.Array[uint32](dst), src, f); k != countNonzero(flags) {
					errs <- fmt.Errorf("worker %d: Compact kept %d, want %d", w, k, countNonzero(flags))
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
