package gpu_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// record is the Go twin of records.comp's Record (std430: 12 bytes).
type record struct{ A, B, C uint32 }

// shortRecord is a Go type that does not match it.
type shortRecord struct{ A, B uint32 }

func recordsProgram(t *testing.T, c *gpu.Context) *gpu.Program {
	t.Helper()
	p, err := c.UserProgramFile(filepath.Join("testdata", "kernels", "records.comp"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A Go record whose size is not the GLSL array stride panics at the
// dispatch (binding by number) and at Bind (binding by name), naming the
// block and both sizes; matching records bound by name give the sums.
func TestStructLayoutCheck(t *testing.T) {
	c := gputest.Context(t)
	p := recordsProgram(t, c)
	const n = 100
	sums, _ := gpu.NewBuffer[uint32](c, n)
	defer sums.Delete()
	short, _ := gpu.NewBuffer[shortRecord](c, n)
	defer short.Delete()
	r := recovered(func() {
		c.Do(func() {
			c.BindStorage(0, short)
			c.BindStorage(1, sums)
			p.SetUint("n", n)
			p.DispatchInvocations(n)
		})
	})
	msg := fmt.Sprint(r)
	for _, want := range []string{"storage block Records (binding 0)", "array stride of 12 bytes", "elements of 8 bytes", "shortRecord"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("a 8-byte record bound to a 12-byte GLSL struct: recovered %q, want it to say %q", msg, want)
		}
	}
	r = recovered(func() { c.Do(func() { p.Bind("Records", short.Slice(0, 10)) }) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, "Bind Records") || !strings.Contains(msg, "12 bytes") || !strings.Contains(msg, "8 bytes") {
		t.Fatalf("Bind of a mismatched Range: recovered %q", msg)
	}
	r = recovered(func() { c.Do(func() { p.Bind("Record", sums) }) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, `no storage block "Record"`) || !strings.Contains(msg, "Records, Sums") {
		t.Fatalf("Bind of a misspelt block: recovered %q", msg)
	}

	in := make([]record, n)
	for i := range in {
		in[i] = record{uint32(i), uint32(2 * i), 7}
	}
	recs, _ := gpu.NewBufferFrom(c, in)
	defer recs.Delete()
	c.Do(func() {
		p.Bind("Records", recs)
		p.Bind("Sums", sums)
		p.SetUint("n", n)
		p.DispatchInvocations(n)
	})
	for i, v := range sums.Download() {
		if v != uint32(3*i+7) {
			t.Fatalf("sums[%d] = %d, want %d", i, v, 3*i+7)
		}
	}
}

// In every build (issue 39; before, only under DPGL_GL_DEBUG) a misspelt
// uniform and a block left unbound panic naming them; a declared uniform
// the driver optimized away does not.
func TestChecksNameUnknownUniformAndUnboundBlock(t *testing.T) {
	t.Setenv("DPGL_GL_DEBUG", "")
	c, err := gpu.NewHeadless()
	if err != nil {
		t.Skipf("no OpenGL 4.3+ context: %v", err)
	}
	defer c.Delete()
	if c.Debug() {
		t.Skip("built with gldebug: the checks must be shown without it")
	}
	p := recordsProgram(t, c)
	r := recovered(func() { c.Do(func() { p.SetUint("count", 3) }) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, `no uniform named "count"`) || !strings.Contains(msg, "n, unusedScale") {
		t.Fatalf("misspelt uniform: recovered %q", msg)
	}
	if r := recovered(func() { c.Do(func() { p.SetUint("unusedScale", 3) }) }); r != nil {
		t.Fatalf("a declared uniform the driver optimized away: %v", r)
	}
	sums, _ := gpu.NewBuffer[uint32](c, 10)
	defer sums.Delete()
	dispatch := func() {
		c.Do(func() {
			p.Bind("Sums", sums)
			p.SetUint("n", 10)
			p.DispatchInvocations(10)
		})
	}
	// Binding 0 of the new context was never bound.
	if msg := fmt.Sprint(recovered(dispatch)); !strings.Contains(msg, "storage block Records (binding 0) is used by the shader, but no buffer is bound there") {
		t.Fatalf("unbound block: recovered %q", msg)
	}
	recs, _ := gpu.NewBuffer[record](c, 10)
	c.Do(func() { c.BindStorage(0, recs) })
	if r := recovered(dispatch); r != nil {
		t.Fatalf("every block bound: %v", r)
	}
	recs.Delete()
	if msg := fmt.Sprint(recovered(dispatch)); !strings.Contains(msg, "storage block Records (binding 0): the Buffer[gpu_test.record] bound there was deleted") {
		t.Fatalf("block bound to a deleted buffer: recovered %q", msg)
	}
	// Unbound on purpose (BindStorage with nil): the user says that this
	// dispatch does not need the block, and the check takes their word.
	c.Do(func() { c.BindStorage(0, nil) })
	if r := recovered(dispatch); r != nil {
		t.Fatalf("a block unbound on purpose: %v", r)
	}
}

// A program of one context dispatched inside another context's Do is told
// so, not told to wrap the call in Do.
func TestOtherContextIsNamed(t *testing.T) {
	c := gputest.Context(t)
	other, err := gpu.NewHeadless()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Delete()
	p := other.MustProgram("copy/copy.comp", map[string]string{"WG_SIZE": "64", "ITEMS": "1"})
	r := recovered(func() { c.Do(func() { p.Dispatch(1, 1, 1) }) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, "inside the Do of another Context") || strings.Contains(msg, "wrap it in Context.Do") {
		t.Fatalf("another context's program: recovered %q", msg)
	}
	r = recovered(func() { p.Dispatch(1, 1, 1) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, "wrap it in Context.Do") {
		t.Fatalf("off every GL thread: recovered %q", msg)
	}
	b, _ := gpu.NewBuffer[uint32](other, 4)
	defer b.Delete()
	r = recovered(func() { c.Do(func() { c.BindStorage(0, b.Slice(0, 4)) }) })
	if msg := fmt.Sprint(r); !strings.Contains(msg, "the Range[uint32] belongs to another Context") {
		t.Fatalf("binding another context's buffer: recovered %q", msg)
	}
}

// A deleted buffer has Len 0 and ByteSize 0, and binding it panics.
func TestDeletedBufferLen(t *testing.T) {
	c := gputest.Context(t)
	b, _ := gpu.NewBuffer[uint32](c, 3)
	view := b.Slice(1, 2)
	b.Delete()
	if b.Len() != 0 || b.ByteSize() != 0 || view.Len() != 0 || !b.Deleted() {
		t.Fatalf("after Delete: Len %d, ByteSize %d, a view's Len %d, Deleted %v; want 0, 0, 0, true", b.Len(), b.ByteSize(), view.Len(), b.Deleted())
	}
	if r := recovered(func() { c.Do(func() { c.BindStorage(0, view) }) }); !strings.Contains(fmt.Sprint(r), "the Range[uint32] was deleted") {
		t.Fatalf("binding a view of a deleted buffer: recovered %v", r)
	}
	if r := recovered(func() { c.Do(func() { c.BindStorage(0, b) }) }); !strings.Contains(fmt.Sprint(r), "was deleted") {
		t.Fatalf("binding a deleted buffer: recovered %v", r)
	}
	if r := recovered(func() { b.Download() }); !strings.Contains(fmt.Sprint(r), "deleted Buffer[uint32] (it had 3 elements)") {
		t.Fatalf("reading a deleted buffer: recovered %v", r)
	}
}

// A Do whose function waits for a goroutine that calls Do (here
// Buffer.Get; scan.Reduce is the same) is deadlocked; the stall report
// names it. The test's Do stops waiting when the report comes, which ends
// the deadlock.
func TestStallReportNamesNestedDo(t *testing.T) {
	c := gputest.Context(t)
	reports := make(chan string, 1)
	c.SetStallReport(200*time.Millisecond, func(m string) {
		select {
		case reports <- m:
		default:
		}
	})
	defer c.SetStallReport(gpu.DefaultStallReport, nil)
	b, _ := gpu.NewBuffer[uint32](c, 1)
	defer b.Delete()
	done := make(chan struct{})
	var msg string
	c.Do(func() {
		go func() {
			b.Get(0)
			close(done)
		}()
		select {
		case <-done:
			t.Error("the inner Do ran while the outer Do held the GL thread")
		case msg = <-reports:
		case <-time.After(60 * time.Second):
			t.Error("no stall report after 60 s")
		}
	})
	<-done
	for _, want := range []string{"has waited", "TestStallReportNamesNestedDo", "deadlocked"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("stall report %q does not say %q", msg, want)
		}
	}
}

// Many goroutines sharing the GL thread with short calls never report a
// stall, though each waits in the queue longer than the report's delay
// (128 goroutines x 30 ms calls: about 3.8 s a wait, against 3 s; a false
// report would need one 30 ms call to hold the thread for 3 s).
func TestNoStallReportUnderContention(t *testing.T) {
	c := gputest.Context(t)
	reports := make(chan string, 1)
	c.SetStallReport(3*time.Second, func(m string) {
		select {
		case reports <- m:
		default:
		}
	})
	defer c.SetStallReport(gpu.DefaultStallReport, nil)
	b, _ := gpu.NewBuffer[uint32](c, 1)
	defer b.Delete()
	done := make(chan struct{})
	const goroutines = 128
	for g := 0; g < goroutines; g++ {
		go func() {
			for i := 0; i < 2; i++ {
				c.Do(func() { time.Sleep(30 * time.Millisecond) })
			}
			done <- struct{}{}
		}()
	}
	for g := 0; g < goroutines; g++ {
		<-done
	}
	select {
	case m := <-reports:
		t.Fatalf("a stall was reported under mere contention: %s", m)
	default:
	}
}
