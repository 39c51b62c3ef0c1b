package main

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/internal/fileio"
)

// policyColors: OR red, LB blue, Bounded green, Always grey.
var policyColors = map[balancer.Policy]color.RGBA{
	balancer.Never:         {R: 200, G: 40, B: 40, A: 255},
	balancer.CostEffective: {R: 30, G: 90, B: 200, A: 255},
	balancer.Bounded:       {R: 20, G: 150, B: 60, A: 255},
	balancer.Always:        {R: 110, G: 110, B: 110, A: 255},
}

// positive keeps log axes defined: a zero time (a clock too coarse) is
// drawn at a nanosecond.
func positive(x float64) float64 { return max(x, 1e-6) }

// tiles draws plots in a grid of the given columns into a PNG.
func tiles(plots []*plot.Plot, cols int, w, h vg.Length) ([]byte, error) {
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, p := range plots {
		grid[i/cols][i%cols] = p
	}
	for _, p := range plots {
		safeLogY(p)
	}
	img := vgimg.New(w, h)
	dc := draw.New(img)
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, t, dc)
	for j := range grid {
		for i, p := range grid[j] {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// lanesTicks labels the positions 0..n-1 of the Lanes values.
func lanesTicks(lanes []int) plot.ConstantTicks {
	var t plot.ConstantTicks
	for i, l := range lanes {
		t = append(t, plot.Tick{Value: float64(i), Label: lanesLabel(l)})
	}
	return t
}

// writePlots draws frame time over Lanes per view (one file per set) and
// the phase-time ranges of LB's loops. A plot that cannot be drawn from the
// data is left out, with a note in notes: the data decide a plot, never
// whether the run keeps its tables. Only a failed write is an error.
func writePlots(out *fileio.Batch, r *experiment.Report) (files, notes []string, err error) {
	write := func(name string, draw func() ([]byte, error)) error {
		png, err := drawSafely(draw)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s not drawn: %v", name, err))
			return nil
		}
		return writeFile(out, name, png, &files)
	}
	for set := range setNames {
		if err := write(fmt.Sprintf("plot-time-vs-lanes-%s.png", setNames[set]), func() ([]byte, error) { return timePlots(r, set) }); err != nil {
			return files, notes, err
		}
	}
	err = write("plot-phase-times.png", func() ([]byte, error) {
		var plots []*plot.Plot
		for set := range setNames {
			pl, err := phasePlot(r, set)
			if err != nil {
				return nil, err
			}
			plots = append(plots, pl)
		}
		return tiles(plots, 2, vg.Points(720), vg.Points(300))
	})
	return files, notes, err
}

// drawSafely runs draw, turning a panic of the plotting library (which
// panics on data it cannot scale) into an error.
func drawSafely(draw func() ([]byte, error)) (png []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			png, err = nil, fmt.Errorf("%v", p)
		}
	}()
	return draw()
}

// safeLogY keeps a log Y axis drawable whatever the data: with no data, or
// a range reaching zero, a negative value or NaN (where plot.LogScale
// panics), the axis becomes linear and the title says so; a range of one
// value (whose padding of ±1 would reach below zero) is widened by a
// factor of 2 each way.
func safeLogY(p *plot.Plot) {
	if p == nil {
		return
	}
	if _, ok := p.Y.Scale.(plot.LogScale); !ok {
		return
	}
	lo, hi := p.Y.Min, p.Y.Max
	switch {
	case !(lo > 0) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(hi):
		p.Y.Scale, p.Y.Tick.Marker = plot.LinearScale{}, plot.DefaultTicks{}
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
			p.Y.Min, p.Y.Max = 0, 1
			p.Title.Text += "\n(no values)"
		} else {
			p.Title.Text += "\n(linear axis: values at or below 0)"
		}
	case lo == hi:
		p.Y.Min, p.Y.Max = lo/2, hi*2
	}
}

// timePlots draws a set's frame time over the Lanes values, a plot per
// view, a line per policy.
func timePlots(r *experiment.Report, set int) ([]byte, error) {
	var plots []*plot.Plot
	lanes := r.Lanes()
	for _, v := range r.Views() {
		pl := plot.New()
		pl.Title.Text = fmt.Sprintf("%s set, %s", setNames[set], v.Name)
		pl.X.Label.Text = "lanes"
		pl.Y.Label.Text = "frame time (ms, GPU)"
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = logTicks{}
		pl.X.Tick.Marker = lanesTicks(lanes)
		pl.X.Min, pl.X.Max = -0.3, float64(len(lanes)-1)+0.3
		pl.Legend.Top = true
		for _, pol := range r.Policies() {
			var xys plotter.XYs
			for i, l := range lanes {
				// A frame without a finite time (none measured) is left
				// out: plotter refuses NaN, and a log axis 0.
				if y := ms(r.Frame(set, v.Name, l, pol).Time.Median); !math.IsNaN(y) && !math.IsInf(y, 0) {
					xys = append(xys, plotter.XY{X: float64(i), Y: positive(y)})
				}
			}
			if len(xys) == 0 {
				continue
			}
			line, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			c := policyColors[pol]
			line.Color, pts.Color = c, c
			line.Width = vg.Points(1.5)
			pl.Add(line, pts)
			pl.Legend.Add(policyLabel(pol), line, pts)
		}
		plots = append(plots, pl)
	}
	cols := min(2, len(plots))
	return tiles(plots, cols, vg.Points(float64(330*cols)), vg.Points(float64(260*((len(plots)+cols-1)/cols))))
}

var phases = []string{"gather", "redistribute", "solve"}

// phasePlot draws, per loop and phase, the distribution of LB's phase
// durations on a set over all iterations of all views and repetitions,
// one box per Lanes value (median, quartiles, whiskers to 1.5 IQR,
// outliers).
func phasePlot(r *experiment.Report, set int) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("LB phase times, %s set", setNames[set])
	pl.Y.Label.Text = "ms (GPU)"
	pl.Y.Scale = plot.LogScale{}
	pl.Y.Tick.Marker = logTicks{}
	var ticks plot.ConstantTicks
	for li, ln := range []string{"scan", "z-buffer"} {
		for pi, ph := range phases {
			ticks = append(ticks, plot.Tick{Value: float64(li*len(phases) + pi), Label: ln + "\n" + ph})
		}
	}
	pl.X.Tick.Marker = ticks
	pl.X.Min, pl.X.Max = -0.5, float64(2*len(phases))-0.5
	pl.Legend.Top = true
	n := len(r.Lanes())
	for k, l := range r.Lanes() {
		var agg [2][3]balancer.PhaseTimes // loop, phase
		for _, v := range r.Views() {
			fr := r.Frame(set, v.Name, l, balancer.CostEffective)
			for i, lr := range []*experiment.LoopRun{&fr.Scan, &fr.Z} {
				agg[i][0].Merge(lr.Gather)
				agg[i][1].Merge(lr.Redistribute)
				agg[i][2].Merge(lr.Solve)
			}
		}
		c := lanesColor(k, n)
		drawn, err := phaseBoxes(pl, agg, k, n, c)
		if err != nil {
			return nil, err
		}
		if drawn {
			pl.Legend.Add("lanes "+lanesLabel(l), swatch(c))
		}
	}
	return pl, nil
}

// phaseBoxes adds the boxes of the k-th of n Lanes values, side by side
// within each phase's slot, and reports whether any had durations.
func phaseBoxes(pl *plot.Plot, agg [2][3]balancer.PhaseTimes, k, n int, c color.RGBA) (bool, error) {
	width := vg.Points(40 / float64(max(n, 1)))
	drawn := false
	for li := range agg {
		for pi, t := range agg[li] {
			if len(t.All) == 0 {
				continue
			}
			vals := make(plotter.Values, len(t.All))
			for i, d := range t.All {
				vals[i] = positive(ms(d))
			}
			x := float64(li*len(phases)+pi) + (float64(k)-float64(n-1)/2)*0.6/float64(max(n, 2))
			b, err := plotter.NewBoxPlot(width, x, vals)
			if err != nil {
				return drawn, err
			}
			b.BoxStyle.Color, b.MedianStyle.Color, b.WhiskerStyle.Color = c, c, c
			b.GlyphStyle.Color = c
			pl.Add(b)
			drawn = true
		}
	}
	return drawn, nil
}

// swatch is a legend entry filled with one colour.
type swatch color.RGBA

func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(color.RGBA(s), c.ClipPolygonXY(pts))
}

// lanesColor shades from light to dark blue over the Lanes values.
func lanesColor(k, n int) color.RGBA {
	t := 0.0
	if n > 1 {
		t = float64(k) / float64(n-1)
	}
	return color.RGBA{R: uint8(120 - 100*t), G: uint8(170 - 120*t), B: uint8(230 - 80*t), A: 255}
}

// logTicks labels 1, 2 and 5 times the powers of ten on a log axis (with
// unlabelled ticks at the other integers), so that a range within one
// decade still gets labels; plot.LogTicks labels powers of ten only.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	var out []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * base
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 3, 64)
			}
			out = append(out, t)
		}
	}
	labelled := 0
	for _, t := range out {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 { // a narrow range: label its ends
		out = append(out, plot.Tick{Value: lo, Label: strconv.FormatFloat(lo, 'g', 3, 64)}, plot.Tick{Value: hi, Label: strconv.FormatFloat(hi, 'g', 3, 64)})
	}
	return out
}
