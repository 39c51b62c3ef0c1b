package main

import (
	"fmt"
	"os"
	"time"

	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/gpu"
)

// Stats summarizes repeated timings (experiment.Stats).
type Stats = experiment.Stats

var (
	summarize = experiment.Summarize
	fmtDur    = experiment.FmtDur
	fmtMs     = experiment.FmtMs
	ms        = experiment.Ms
	ratio     = experiment.Ratio
)

// timeGPU runs fn warm times, then reps times between GPU timestamps, and
// returns the median GPU time. fn runs on the GL thread.
func timeGPU(c *gpu.Context, warm, reps int, fn func()) Stats {
	for i := 0; i < warm; i++ {
		c.Do(fn)
	}
	c.Finish()
	timers := make([]*gpu.Timer, reps)
	walls := make([]time.Duration, reps)
	for i := range timers {
		timers[i] = c.NewTimer()
	}
	defer func() {
		for _, t := range timers {
			t.Delete()
		}
	}()
	for i, t := range timers {
		start := time.Now()
		c.Do(func() {
			t.Start()
			fn()
			t.Stop()
		})
		c.Finish()
		walls[i] = time.Since(start)
	}
	gpuTimes := make([]time.Duration, reps)
	for i, t := range timers {
		gpuTimes[i] = t.Elapsed()
	}
	return summarize(gpuTimes, walls)
}

// progress prints a transient progress line on standard error when that is
// a terminal, once the work has taken over half a second.
type progress struct {
	label string
	total int
	done  int
	start time.Time
	shown bool
}

var stderrIsTerminal = func() bool {
	fi, err := os.Stderr.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}()

func newProgress(label string, total int) *progress {
	return &progress{label: label, total: total, start: time.Now()}
}

// step reports that one more unit, what, is done.
func (p *progress) step(what string) { p.stepN(1, what) }

// stepN reports that n more units, what, are done.
func (p *progress) stepN(n int, what string) {
	p.done += n
	if stderrIsTerminal && time.Since(p.start) > 500*time.Millisecond {
		fmt.Fprintf(os.Stderr, "\r\033[K%s %d/%d %s", p.label, p.done, p.total, what)
		p.shown = true
	}
}

// show prints what is under way now, for one step that may take seconds.
func (p *progress) show(what string) {
	if stderrIsTerminal {
		fmt.Fprintf(os.Stderr, "\r\033[K%s: %s", p.label, what)
		p.shown = true
	}
}

// clear removes the progress line so that results print cleanly.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprintf(os.Stderr, "\r\033[K")
		p.shown = false
	}
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
