package balancer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCalibrationRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cal.json")
	cal, err := LoadCalibration(path)
	if err != nil {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := cal.Lookup("gpu A", "scan conversion"); err == nil || !strings.Contains(err.Error(), "holds nothing") {
		t.Fatalf("lookup in an empty calibration: %v", err)
	}
	a := LoopCost{CostIterations: 21.5, Margin: 4, MaxGatherNs: 10, MaxRedistributeNs: 20, MinSolveNs: 3, Runs: 2}
	cal.Set("gpu A", "scan conversion", a)
	cal.Set("gpu A", "z-buffer", LoopCost{CostIterations: 33, Runs: 1})
	cal.Set("gpu B", "scan conversion", LoopCost{CostIterations: 7, Runs: 1})
	if err := cal.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Lookup("gpu A", "scan conversion")
	if err != nil || got.CostIterations != 21.5 || got.MaxRedistributeNs != 20 || got.Date == "" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if got, _ := back.Lookup("gpu B", "scan conversion"); got.CostIterations != 7 {
		t.Fatalf("gpu B: %+v", got)
	}
	// Another GPU's file: says what it holds instead.
	if _, err := back.Lookup("gpu C", "scan conversion"); err == nil || !strings.Contains(err.Error(), `only "gpu A", "gpu B"`) {
		t.Fatalf("foreign renderer: %v", err)
	}
	if _, err := back.Lookup("gpu B", "z-buffer"); err == nil || !strings.Contains(err.Error(), `no calibration for loop "z-buffer"`) {
		t.Fatalf("missing loop: %v", err)
	}
}

// A corrupt or foreign file is reported, ignored, and replaced by Save.
func TestCalibrationCorruptOrForeign(t *testing.T) {
	for name, c := range map[string]struct{ data, reason string }{
		"truncated":     {`{"format": "dpgl balancer calibration", "version": 1, "renderers": {"x": {`, "not a calibration file"},
		"garbage":       {"\x00\x01binary", "not a calibration file"},
		"empty":         {"", "not a calibration file"},
		"foreign json":  {`{"name": "some-package", "version": "1.0.0"}`, "not a calibration file"},
		"foreign array": {`[1, 2, 3]`, "not a calibration file"},
		"other format":  {`{"format": "something else", "version": 1, "renderers": {}}`, `format "something else"`},
		"other version": {`{"format": "dpgl balancer calibration", "version": 7, "renderers": {}}`, "version 7"},
		"nan cost":      {`{"format": "dpgl balancer calibration", "version": 1, "renderers": {"r": {"l": {"costIterations": -3, "runs": 1}}}}`, "not a positive number"},
		"two objects":   {`{"format": "dpgl balancer calibration", "version": 1, "renderers": {}} {}`, "data after"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cal.json")
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			cal, err := LoadCalibration(path)
			var ce *CalibrationError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.reason) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want a CalibrationError about %q", err, c.reason)
			}
			if _, err := cal.Lookup("r", "l"); err == nil {
				t.Fatal("an untrusted file's entries were used")
			}
			cal.Set("r", "l", LoopCost{CostIterations: 5, Runs: 1})
			if err := cal.Save(); err != nil {
				t.Fatal(err)
			}
			back, err := LoadCalibration(path)
			if err != nil {
				t.Fatalf("the replaced file: %v", err)
			}
			if lc, err := back.Lookup("r", "l"); err != nil || lc.CostIterations != 5 {
				t.Fatalf("the replaced file holds %+v, %v", lc, err)
			}
		})
	}
}

func TestCalibrationSetRefusesNonsense(t *testing.T) {
	defer func() {
		if p, _ := recover().(string); !strings.Contains(p, "balancer: Calibration.Set") {
			t.Fatalf("panic %q", p)
		}
	}()
	cal, _ := LoadCalibration(filepath.Join(t.TempDir(), "x.json"))
	cal.Set("r", "l", LoopCost{CostIterations: 0})
}

// The overestimate the paper's way, with injected timings.
func TestCalibratorPaperWay(t *testing.T) {
	run := func(gather, redis, solve time.Duration) Stats {
		clock := func(p Phase, active int) time.Duration {
			switch p {
			case PhaseGather:
				return gather
			case PhaseRedistribute:
				return redis
			}
			// Solution phases with fewer active processors are shorter; the
			// fewest here are 6, at the end.
			return solve + time.Duration(active-6)*time.Microsecond
		}
		m := NewModel(IntegerSteps, []uint32{100, 21, 0, 0, 0, 0, 0}, nil, problems(7))
		return Simulate(m, Config{Policy: Always}, clock, nil)
	}
	var c Calibrator
	if _, err := c.Estimate(DefaultMargin); err == nil {
		t.Fatal("an estimate from no runs")
	}
	a := run(100*time.Microsecond, 900*time.Microsecond, 100*time.Microsecond) // (100+900)/100 = 10
	b := run(300*time.Microsecond, 500*time.Microsecond, 50*time.Microsecond)  // (300+500)/50 = 16
	if a.Solve.Min != 100*time.Microsecond || b.Solve.Min != 50*time.Microsecond {
		t.Fatalf("shortest solution phases %v %v", a.Solve.Min, b.Solve.Min)
	}
	c.Add(&a)
	c.Add(&b)
	lc, err := c.Estimate(DefaultMargin)
	if err != nil {
		t.Fatal(err)
	}
	// Per run, not global extremes: (300+900)/50 = 24 would overstate.
	if lc.CostIterations != 16+DefaultMargin || lc.Runs != 2 || lc.MaxGatherNs != 300e3 || lc.MaxRedistributeNs != 900e3 || lc.MinSolveNs != 50e3 {
		t.Fatalf("estimate %+v", lc)
	}
	// The §2.2 floor: solution phases count as at least 80 µs.
	f := Calibrator{SolveFloor: 80 * time.Microsecond}
	f.Add(&a)
	f.Add(&b)
	if lc, _ := f.Estimate(0); lc.CostIterations != 10 || lc.SolveFloorNs != 80e3 {
		t.Fatalf("with a floor: %+v", lc)
	}
	// A run that never redistributed cannot calibrate.
	var n Calibrator
	never := Simulate(NewModel(IntegerSteps, []uint32{3, 3}, nil, problems(2)), Config{Policy: Always}, func(Phase, int) time.Duration { return time.Millisecond }, nil)
	n.Add(&never)
	if _, err := n.Estimate(1); err == nil || !strings.Contains(err.Error(), "no run redistributed") {
		t.Fatalf("estimate without redistributions: %v", err)
	}
}
