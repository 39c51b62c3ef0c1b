package scan_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// A Do whose function waits for a goroutine calling scan.Reduce (which
// needs the GL thread itself) is deadlocked; the context's stall report
// says so, naming the waiting caller. The test's Do stops waiting when the
// report comes, which ends the deadlock.
func TestReduceInsideDoFromAnotherGoroutineIsReported(t *testing.T) {
	c := gputest.Context(t)
	s, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Delete()
	src, _ := gpu.NewBufferFrom(c, []uint32{1, 2, 3})
	defer src.Delete()
	reports := make(chan string, 1)
	c.SetStallReport(200*time.Millisecond, func(m string) {
		select {
		case reports <- m:
		default:
		}
	})
	defer c.SetStallReport(gpu.DefaultStallReport, nil)
	sum := make(chan uint32)
	var msg string
	c.Do(func() {
		go func() { sum <- scan.Reduce(s, gpu.Array[uint32](src), scan.Add) }()
		select {
		case v := <-sum:
			t.Errorf("Reduce (%d) ran while the outer Do held the GL thread", v)
		case msg = <-reports:
		case <-time.After(60 * time.Second):
			t.Error("no stall report after 60 s")
		}
	})
	if v := <-sum; v != 6 {
		t.Fatalf("Reduce after the stall: %d, want 6", v)
	}
	if !strings.Contains(msg, "called from github.com/dpgl/dpgl/scan.") || !strings.Contains(msg, "deadlocked") {
		t.Fatalf("stall report %q does not name scan.Reduce and the deadlock", msg)
	}
}
