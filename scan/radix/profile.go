package radix

import (
	"time"

	"github.com/dpgl/dpgl/gpu"
)

// Step is one stage of a profiled sort (see Sorter.SetProfiling) and the
// GPU time it took, from the end of the step before it.
type Step struct {
	// Name is the stage: "histograms" and "bases" (the one-sweep path's
	// reads before the passes), "counts" and "scan" (the counts path's
	// first two stages of each pass), "scatter" (each pass's ranking and
	// move), "copy back" (after an odd number of passes).
	Name string
	Pass int // the pass of a per-pass step, -1 for the others
	Time time.Duration
}

// SetProfiling makes the Sorter's later sorts record each step's GPU time
// in Plan.Steps, or stop recording. A profiled sort waits for the GPU at
// its end (to read the timestamps), so it is for benchmarks and tuning.
func (s *Sorter) SetProfiling(on bool) {
	s.mu.Lock()
	s.profiling = on
	s.mu.Unlock()
}

// profile is one sort's timestamps: the GPU clock at its start and after
// each step. A nil *profile records nothing.
type profile struct {
	c     *gpu.Context
	names []string
	pass  []int
	at    []*gpu.Stamp
}

// newProfile starts a profile when profiling is on (on the GL thread).
func (s *Sorter) newProfile() *profile {
	s.mu.Lock()
	on := s.profiling
	s.mu.Unlock()
	if !on {
		return nil
	}
	pr := &profile{c: s.c}
	pr.step("", -1)
	return pr
}

// step stamps the end of the step called name.
func (pr *profile) step(name string, pass int) {
	if pr == nil {
		return
	}
	st := pr.c.NewStamp()
	st.Record()
	pr.names = append(pr.names, name)
	pr.pass = append(pr.pass, pass)
	pr.at = append(pr.at, st)
}

// read waits for the stamps and returns the steps' times.
func (pr *profile) read() []Step {
	if pr == nil {
		return nil
	}
	out := make([]Step, 0, len(pr.at)-1)
	prev := pr.at[0].Nanos()
	for i := 1; i < len(pr.at); i++ {
		var d time.Duration
		if t := pr.at[i].Nanos(); t > prev {
			d, prev = time.Duration(t-prev), t
		}
		out = append(out, Step{Name: pr.names[i], Pass: pr.pass[i], Time: d})
	}
	return out
}

func (pr *profile) delete() {
	if pr == nil {
		return
	}
	for _, st := range pr.at {
		st.Delete()
	}
}
