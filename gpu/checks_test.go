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

func checkedDispatch(b *testing.B) (*gpu.Context, *gpu.Program, int) {
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
