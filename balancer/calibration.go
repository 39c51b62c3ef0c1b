package balancer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultMargin is the constant, in iterations, that a calibration adds to
// the largest measured cost so that it stays an overestimate (§2.1: "to
// this initial estimate a constant is added").
const DefaultMargin = 4

// Calibrator computes a loop kind's overestimated cost the paper's way
// (§2.1): for each calibration run (a dataset), the longest gathering plus
// the longest redistribution over the shortest solution phase; the largest
// of these over all runs, plus a margin constant.
//
// Runs should balance (the Always policy does whenever it can), since a run
// without a redistribution measures only the gathering.
type Calibrator struct {
	// SolveFloor, when set, is the paper's floor on the solution phase's
	// minimum time (§2.2): shorter solution phases count as SolveFloor, so
	// that a few nearly empty iterations cannot inflate the estimate. The
	// paper pads such iterations with a delay; a GPU has no cheap way to
	// idle for a set time, so here the floor is a bet that the solution
	// phases that savings are counted in take at least that long. Runs
	// whose iterations are shorter show up in the over-cost warning.
	SolveFloor time.Duration

	Runs            int
	Cost            float64       // the largest per-run cost so far, without the margin
	MaxGather       time.Duration // over all runs
	MaxRedistribute time.Duration
	MinSolve        time.Duration
}

// Add accounts one run's times. Runs that did not gather or did not solve
// count for nothing.
func (c *Calibrator) Add(s *Stats) {
	if s.Gather.N == 0 || s.Solve.N == 0 {
		return
	}
	soln := max(s.Solve.Min, c.SolveFloor)
	c.Cost = max(c.Cost, costOf(s.Gather.Max, s.Redistribute.Max, soln))
	c.MaxGather = max(c.MaxGather, s.Gather.Max)
	c.MaxRedistribute = max(c.MaxRedistribute, s.Redistribute.Max)
	if c.Runs == 0 || soln < c.MinSolve {
		c.MinSolve = soln
	}
	c.Runs++
}

// Estimate returns the overestimate: the largest cost plus margin. It fails
// when no run gathered or none redistributed.
func (c *Calibrator) Estimate(margin float64) (LoopCost, error) {
	if c.Runs == 0 {
		return LoopCost{}, errors.New("balancer: Calibrator.Estimate: no run gathered information")
	}
	if c.MaxRedistribute == 0 {
		return LoopCost{}, errors.New("balancer: Calibrator.Estimate: no run redistributed (calibrate with the Always policy on unbalanced data)")
	}
	return LoopCost{
		CostIterations:    c.Cost + margin,
		Margin:            margin,
		MaxGatherNs:       int64(c.MaxGather),
		MaxRedistributeNs: int64(c.MaxRedistribute),
		MinSolveNs:        int64(c.MinSolve),
		SolveFloorNs:      int64(c.SolveFloor),
		Runs:              c.Runs,
	}, nil
}

// LoopCost is the calibrated overestimate of one loop kind on one renderer.
type LoopCost struct {
	CostIterations    float64 `json:"costIterations"` // what Config.CostIterations takes
	Margin            float64 `json:"margin"`
	MaxGatherNs       int64   `json:"maxGatherNs"`
	MaxRedistributeNs int64   `json:"maxRedistributeNs"`
	MinSolveNs        int64   `json:"minSolveNs"`
	SolveFloorNs      int64   `json:"solveFloorNs,omitempty"`
	Runs              int     `json:"runs"`
	Date              string  `json:"date,omitempty"` // when it was measured, RFC 3339
}

func (lc LoopCost) check() error {
	if math.IsNaN(lc.CostIterations) || math.IsInf(lc.CostIterations, 0) || lc.CostIterations <= 0 {
		return fmt.Errorf("costIterations %v is not a positive number", lc.CostIterations)
	}
	if lc.MaxGatherNs < 0 || lc.MaxRedistributeNs < 0 || lc.MinSolveNs < 0 || lc.SolveFloorNs < 0 || lc.Runs < 1 {
		return fmt.Errorf("negative times or no runs")
	}
	return nil
}

// calibrationFormat marks a file as ours; a file without it is foreign.
const (
	calibrationFormat  = "dpgl balancer calibration"
	calibrationVersion = 1
)

// calibrationFile is the JSON layout:
//
//	{"format": "dpgl balancer calibration", "version": 1,
//	 "renderers": {"<GL_RENDERER>": {"<loop name>": {LoopCost}}}}
type calibrationFile struct {
	Format    string                         `json:"format"`
	Version   int                            `json:"version"`
	Renderers map[string]map[string]LoopCost `json:"renderers"`
}

// Calibration is a file of calibrated costs, keyed by the GL renderer string
// (Caps.Renderer: the same costs do not carry over to another GPU or driver)
// and the loop's name.
type Calibration struct {
	Path string
	file calibrationFile
}

// DefaultCalibrationPath is where calibrations live unless a path is given:
// dpgl/balancer-calibration.json in the user's cache directory.
func DefaultCalibrationPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "dpgl", "balancer-calibration.json")
}

// CalibrationError reports a calibration file that cannot be trusted:
// unreadable, not JSON, not a dpgl calibration (foreign), of another
// version, or holding impossible values. Its contents are ignored, and
// Save replaces the file.
type CalibrationError struct {
	Path   string
	Reason string
}

func (e *CalibrationError) Error() string {
	return fmt.Sprintf("balancer: calibration file %s ignored: %s; it will be replaced when a calibration is saved", e.Path, e.Reason)
}

// LoadCalibration reads the calibration file at path. A missing file gives
// an empty calibration and no error. A file that cannot be trusted gives an
// empty calibration and a *CalibrationError saying why, which the caller
// should report; the calibration is still usable, and Save replaces the bad
// file.
func LoadCalibration(path string) (*Calibration, error) {
	cal := &Calibration{Path: path, file: calibrationFile{Format: calibrationFormat, Version: calibrationVersion,
		Renderers: map[string]map[string]LoopCost{}}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cal, nil
	}
	if err != nil {
		return cal, &CalibrationError{path, err.Error()}
	}
	var f calibrationFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return cal, &CalibrationError{path, "not a calibration file: " + err.Error()}
	}
	if dec.More() {
		return cal, &CalibrationError{path, "not a calibration file: data after the JSON object"}
	}
	if f.Format != calibrationFormat {
		return cal, &CalibrationError{path, fmt.Sprintf("not a dpgl balancer calibration (format %q)", f.Format)}
	}
	if f.Version != calibrationVersion {
		return cal, &CalibrationError{path, fmt.Sprintf("version %d, this program reads version %d", f.Version, calibrationVersion)}
	}
	for r, loops := range f.Renderers {
		for name, lc := range loops {
			if err := lc.check(); err != nil {
				return cal, &CalibrationError{path, fmt.Sprintf("renderer %q, loop %q: %v", r, name, err)}
			}
		}
	}
	if f.Renderers != nil {
		cal.file.Renderers = f.Renderers
	}
	return cal, nil
}

// Lookup returns the calibrated cost of the named loop on the renderer. Its
// error says what the file holds instead when there is none.
func (cal *Calibration) Lookup(renderer, loop string) (LoopCost, error) {
	loops, ok := cal.file.Renderers[renderer]
	if !ok {
		var have []string
		for r := range cal.file.Renderers {
			have = append(have, fmt.Sprintf("%q", r))
		}
		sort.Strings(have)
		held := "nothing"
		if len(have) > 0 {
			held = "only " + strings.Join(have, ", ")
		}
		return LoopCost{}, fmt.Errorf("balancer: %s holds no calibration for renderer %q (it holds %s)", cal.Path, renderer, held)
	}
	lc, ok := loops[loop]
	if !ok {
		return LoopCost{}, fmt.Errorf("balancer: %s holds no calibration for loop %q on renderer %q", cal.Path, loop, renderer)
	}
	return lc, nil
}

// Set records the cost of a loop on a renderer (Save writes it). A zero
// Date is set to now.
func (cal *Calibration) Set(renderer, loop string, lc LoopCost) {
	if err := lc.check(); err != nil {
		panic(fmt.Sprintf("balancer: Calibration.Set: %s on %q: %v", loop, renderer, err))
	}
	if lc.Date == "" {
		lc.Date = time.Now().UTC().Format(time.RFC3339)
	}
	if cal.file.Renderers[renderer] == nil {
		cal.file.Renderers[renderer] = map[string]LoopCost{}
	}
	cal.file.Renderers[renderer][loop] = lc
}

// Save writes the calibration to Path, creating its directory, replacing
// whatever was there in one rename so that readers never see half a file.
func (cal *Calibration) Save() error {
	data, err := json.MarshalIndent(&cal.file, "", "  ")
	if err != nil {
		return fmt.Errorf("balancer: saving calibration: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(cal.Path), 0o755); err != nil {
		return fmt.Errorf("balancer: saving calibration: %v", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(cal.Path), ".calibration-*")
	if err != nil {
		return fmt.Errorf("balancer: saving calibration: %v", err)
	}
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), cal.Path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("balancer: saving calibration to %s: %v", cal.Path, err)
	}
	return nil
}
