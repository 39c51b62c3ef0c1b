package balancer

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
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

// A file that is not ours is reported, left byte for byte as it was, and
// never written: Save fails.
func TestCalibrationForeignFileIsNeverWritten(t *testing.T) {
	gz := []byte{0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x5c, 0x01, 'n', '+', 0x00}
	for name, c := range map[string]struct{ data, reason string }{
		"nii.gz":        {string(gz), "not a JSON object"},
		"truncated":     {`{"format": "dpgl balancer calibration", "version": 1, "renderers": {"x": {`, "not a JSON object"},
		"garbage":       {"\x00\x01binary", "not a JSON object"},
		"empty":         {"", "not a JSON object"},
		"null":          {"null", "not a JSON object"},
		"foreign json":  {`{"name": "some-package", "version": "1.0.0"}`, `"format" is missing`},
		"foreign array": {`[1, 2, 3]`, "not a JSON object"},
		"other format":  {`{"format": "something else", "version": 1, "renderers": {}}`, `"format" is "something else"`},
		"other version": {`{"format": "dpgl balancer calibration", "version": 7, "renderers": {}}`, "version 7"},
		"bad renderers": {`{"format": "dpgl balancer calibration", "version": 1, "renderers": [1]}`, `"renderers" is not an object`},
		"two objects":   {`{"format": "dpgl balancer calibration", "version": 1, "renderers": {}} {}`, "data after"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cal.json")
			if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			cal, err := LoadCalibration(path)
			var ce *CalibrationError
			if !errors.As(err, &ce) || !ce.Foreign || !strings.Contains(err.Error(), c.reason) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want a foreign-file CalibrationError about %q naming the file", err, c.reason)
			}
			if _, err := cal.Lookup("r", "l"); err == nil {
				t.Fatal("an untrusted file's entries were used")
			}
			cal.Set("r", "l", LoopCost{CostIterations: 5, Runs: 1})
			if err := cal.Save(); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("Save over a foreign file: %v", err)
			}
			if got, _ := os.ReadFile(path); string(got) != c.data {
				t.Fatalf("the foreign file changed to %q", got)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) > 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
	// A file that became foreign after an empty load is not replaced either.
	path := filepath.Join(t.TempDir(), "later.json")
	cal, err := LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	cal.Set("r", "l", LoopCost{CostIterations: 5, Runs: 1})
	if err := os.WriteFile(path, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cal.Save(); err == nil {
		t.Fatal("Save replaced a file written after the load")
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, gz) {
		t.Fatal("the file written after the load changed")
	}
}

// Entries that cannot be read are reported and kept; the others are used,
// and Save keeps every one of them.
func TestCalibrationKeepsUnreadableEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.json")
	data := `{"format": "dpgl balancer calibration", "version": 1, "note": {"by": "hand"},
 "renderers": {
  "gpu A": {"scan conversion": {"costIterations": 12, "margin": 4, "maxGatherNs": 1, "maxRedistributeNs": 2, "minSolveNs": 3, "runs": 2},
            "z-buffer": {"costIterations": -3, "runs": 1}},
  "gpu B": {"z-buffer": {"costIterations": 9, "runs": 1, "fromTheFuture": true}},
  "gpu C": "not an object"}}`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	cal, err := LoadCalibration(path)
	var ce *CalibrationError
	if !errors.As(err, &ce) || ce.Foreign || len(ce.Entries) != 3 || !strings.Contains(err.Error(), `renderer "gpu A" loop "z-buffer"`) {
		t.Fatalf("got %v, want the three unreadable entries", err)
	}
	if lc, err := cal.Lookup("gpu A", "scan conversion"); err != nil || lc.CostIterations != 12 {
		t.Fatalf("the readable entry: %+v %v", lc, err)
	}
	if _, err := cal.Lookup("gpu A", "z-buffer"); err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("the unreadable entry: %v", err)
	}
	cal.Set("gpu D", "z-buffer", LoopCost{CostIterations: 5, Runs: 1})
	if err := cal.Save(); err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	json.Unmarshal([]byte(data), &before)
	got, _ := os.ReadFile(path)
	if err := json.Unmarshal(got, &after); err != nil {
		t.Fatalf("saved %q: %v", got, err)
	}
	rb, ra := before["renderers"].(map[string]any), after["renderers"].(map[string]any)
	for _, r := range []string{"gpu A", "gpu B", "gpu C"} {
		if !reflect.DeepEqual(rb[r], ra[r]) {
			t.Fatalf("renderer %q changed from %v to %v", r, rb[r], ra[r])
		}
	}
	if !reflect.DeepEqual(before["note"], after["note"]) || ra["gpu D"] == nil {
		t.Fatalf("saved %s", got)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("the file's mode changed to %v", info.Mode())
	}
}

// Two programs saving one file each keep the other's entries.
func TestCalibrationSaveMerges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cal.json")
	a, _ := LoadCalibration(path)
	b, _ := LoadCalibration(path)
	a.Set("gpu", "scan conversion", LoopCost{CostIterations: 5, Runs: 1})
	b.Set("gpu", "z-buffer", LoopCost{CostIterations: 7, Runs: 1})
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	c, err := LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	s, errS := c.Lookup("gpu", "scan conversion")
	z, errZ := c.Lookup("gpu", "z-buffer")
	if errS != nil || errZ != nil || s.CostIterations != 5 || z.CostIterations != 7 {
		t.Fatalf("after two saves: %+v %v, %+v %v", s, errS, z, errZ)
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
