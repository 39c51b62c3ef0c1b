package gpu_test

import (
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// The cost of the checks every dispatch of a user's program makes (the
// layout check and the unbound-block check, issue 39), against the
// dispatch of records.comp over 64 records that they guard, measured
// alternately in one run: go test -run '^$' -bench 'Checks|Dispatch' ./gpu.
func BenchmarkChecks(b *testing.B) {
	c, p, _ := checkedDispatch(b)
	c.Do(func() {
		for b.Loop() {
			p.CheckBindings()
		}
	})
}

func BenchmarkDispatchTiny(b *testing.B) {
	c, p, n := checkedDispatch(b)
	c.Do(func() {
		for b.Loop() {
			p.DispatchInvocations(n)
		}
	})
	c.Finish()
}

func checkedDispatch(b testing.TB) (*gpu.Context, *gpu.Program, int) {
	c := gputest.Context(b)
	p, err := c.UserProgramFile("testdata/kernels/records.comp", nil)
	if err != nil {
		b.Fatal(err)
	}
	const n = 64
	recs, _ := gpu.NewBuffer[record](c, n)
	sums, _ := gpu.NewBuffer[uint32](c, n)
	b.Cleanup(func() { recs.Delete(); sums.Delete() })
	c.Do(func() {
		p.Bind("Records", recs)
		p.Bind("Sums", sums)
		p.SetUint("n", n)
	})
	return c, p, n
}

// ReadBacks counts the copies to the host, and nothing else: a dispatch
// and an upload count none, each Read, Download and Get one.
func TestReadBacksCounts(t *testing.T) {
	c, p, n := checkedDispatch(t)
	b, _ := gpu.NewBufferFrom(c, []uint32{1, 2, 3})
	defer b.Delete()
	before := c.ReadBacks()
	c.Do(func() { p.DispatchInvocations(n) })
	b.Write(0, []uint32{4})
	if d := c.ReadBacks() - before; d != 0 {
		t.Fatalf("a dispatch and an upload: %d read-backs", d)
	}
	b.Download()
	b.Get(1)
	b.Read(0, make([]uint32, 2))
	if d := c.ReadBacks() - before; d != 3 {
		t.Fatalf("Download, Get and Read: %d read-backs, want 3", d)
	}
}
