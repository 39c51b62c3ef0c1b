package balancer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dpgl/dpgl/internal/fileio"
)

// calibrationFormat marks a file as ours; a file without it is foreign.
const (
	calibrationFormat  = "dpgl balancer calibration"
	calibrationVersion = 1
)

// The JSON layout of a calibration file:
//
//	{"format": "dpgl balancer calibration", "version": 1,
//	 "renderers": {"<GL_RENDERER>": {"<loop name>": {LoopCost}}}}
//
// Entries are kept as raw JSON until they are looked up, so that an entry
// this program cannot read (damaged, or written by a later program) goes
// back to the file as it came, and so do fields it does not know.

// Calibration is a file of calibrated costs, keyed by the GL renderer string
// (Caps.Renderer: the same costs do not carry over to another GPU or driver)
// and the loop's name.
//
// A Calibration never replaces what it did not write: LoadCalibration
// refuses a file that is not a dpgl calibration of this version (Save then
// fails too), entries it cannot read are kept as they are, and Save writes
// a temporary file beside the target and renames it over the target, so
// that readers see the old file or the new one, never half of one.
type Calibration struct {
	Path string

	top       map[string]json.RawMessage            // the file's top-level fields but "renderers"
	renderers map[string]map[string]json.RawMessage // renderer -> loop -> LoopCost
	badRender map[string]json.RawMessage            // renderer entries that are not objects
	set       map[[2]string]json.RawMessage         // what Set changed since the load
	foreign   error                                 // why the file at Path is not ours
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

// CalibrationError reports a calibration file that cannot be used as it is.
//
// Foreign: the file is unreadable, not JSON, not a dpgl calibration, or of
// another version. Nothing in it is used and nothing is written to it:
// Save fails rather than replace it.
//
// Otherwise the file is ours but some of its entries (Entries) cannot be
// read: they are ignored, and kept as they are when the file is saved.
type CalibrationError struct {
	Path    string
	Reason  string
	Foreign bool
	Entries []string // renderer/loop of the unreadable entries
}

func (e *CalibrationError) Error() string {
	if e.Foreign {
		return fmt.Sprintf("balancer: %s is not a calibration file this program can use (%s); it is left untouched and nothing will be written to it: give another calibration path, or move the file away", e.Path, e.Reason)
	}
	return fmt.Sprintf("balancer: calibration file %s: %s; those entries are ignored and kept as they are", e.Path, e.Reason)
}

// LoadCalibration reads the calibration file at path. A missing file gives
// an empty calibration and no error. Otherwise a *CalibrationError says
// what cannot be used: a foreign file (the calibration is empty, and Save
// refuses to replace the file) or unreadable entries (the others are
// usable, and Save keeps them all).
func LoadCalibration(path string) (*Calibration, error) {
	cal := &Calibration{Path: path}
	cal.reset()
	err := cal.read()
	var ce *CalibrationError
	if errors.As(err, &ce) && ce.Foreign {
		cal.foreign = err
		cal.reset()
	}
	return cal, err
}

func (cal *Calibration) reset() {
	cal.top = map[string]json.RawMessage{}
	cal.renderers = map[string]map[string]json.RawMessage{}
	cal.badRender = map[string]json.RawMessage{}
	cal.set = map[[2]string]json.RawMessage{}
}

// read parses the file at cal.Path into cal, which is empty.
func (cal *Calibration) read() error {
	path := cal.Path
	foreign := func(format string, args ...any) error {
		return &CalibrationError{Path: path, Reason: fmt.Sprintf(format, args...), Foreign: true}
	}
	f, err := fileio.OpenShared(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return foreign("%v", err)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return foreign("%v", err)
	}
	return cal.parse(data)
}

// parse reads a calibration file's bytes into cal, which is empty.
func (cal *Calibration) parse(data []byte) error {
	path := cal.Path
	foreign := func(format string, args ...any) error {
		return &CalibrationError{Path: path, Reason: fmt.Sprintf(format, args...), Foreign: true}
	}
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&top); err != nil || top == nil {
		if err == nil {
			err = errors.New("null")
		}
		return foreign("not a JSON object: %v", err)
	}
	if dec.More() {
		return foreign("data after the JSON object")
	}
	var format string
	if err := json.Unmarshal(top["format"], &format); err != nil || format != calibrationFormat {
		return foreign("its \"format\" is %s, not %q", orMissing(top["format"]), calibrationFormat)
	}
	var version int
	if err := json.Unmarshal(top["version"], &version); err != nil || version != calibrationVersion {
		return foreign("version %s; this program reads and writes version %d", orMissing(top["version"]), calibrationVersion)
	}
	var renderers map[string]json.RawMessage
	if raw, ok := top["renderers"]; ok {
		if err := json.Unmarshal(raw, &renderers); err != nil {
			return foreign("its \"renderers\" is not an object: %v", err)
		}
	}
	delete(top, "renderers")
	cal.top = top
	var bad []string
	for r, raw := range renderers {
		var loops map[string]json.RawMessage
		if err := json.Unmarshal(raw, &loops); err != nil || loops == nil {
			cal.badRender[r] = raw
			bad = append(bad, fmt.Sprintf("renderer %q (not an object)", r))
			continue
		}
		cal.renderers[r] = loops
		for name, e := range loops {
			if _, err := decodeLoopCost(e); err != nil {
				bad = append(bad, fmt.Sprintf("renderer %q loop %q (%v)", r, name, err))
			}
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return &CalibrationError{Path: path, Reason: "cannot read " + strings.Join(bad, ", "), Entries: bad}
	}
	return nil
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	if len(raw) > 40 {
		return string(raw[:40]) + "..."
	}
	return string(raw)
}

func decodeLoopCost(raw json.RawMessage) (LoopCost, error) {
	var lc LoopCost
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&lc); err != nil {
		return LoopCost{}, err
	}
	return lc, lc.check()
}

// Lookup returns the calibrated cost of the named loop on the renderer. Its
// error says what the file holds instead when there is none.
func (cal *Calibration) Lookup(renderer, loop string) (LoopCost, error) {
	loops, ok := cal.renderers[renderer]
	if !ok {
		var have []string
		for r := range cal.renderers {
			have = append(have, fmt.Sprintf("%q", r))
		}
		sort.Strings(have)
		held := "nothing"
		if len(have) > 0 {
			held = "only " + strings.Join(have, ", ")
		}
		return LoopCost{}, fmt.Errorf("balancer: %s holds no calibration for renderer %q (it holds %s)", cal.Path, renderer, held)
	}
	raw, ok := loops[loop]
	if !ok {
		return LoopCost{}, fmt.Errorf("balancer: %s holds no calibration for loop %q on renderer %q", cal.Path, loop, renderer)
	}
	lc, err := decodeLoopCost(raw)
	if err != nil {
		return LoopCost{}, &EntryError{Path: cal.Path, Renderer: renderer, Loop: loop, Err: err}
	}
	return lc, nil
}

// EntryError is Lookup's error for an entry the file holds but this
// program cannot read (damaged, or written by a later program): unlike a
// missing one, it is kept as it is when the file is saved, unless Set
// replaces it.
type EntryError struct {
	Path, Renderer, Loop string
	Err                  error
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("balancer: %s: the calibration of loop %q on renderer %q cannot be read: %v", e.Path, e.Loop, e.Renderer, e.Err)
}

func (e *EntryError) Unwrap() error { return e.Err }

// Set records the cost of a loop on a renderer (Save writes it). A zero
// Date is set to now.
func (cal *Calibration) Set(renderer, loop string, lc LoopCost) {
	if err := lc.check(); err != nil {
		panic(fmt.Sprintf("balancer: Calibration.Set: %s on %q: %v", loop, renderer, err))
	}
	if lc.Date == "" {
		lc.Date = time.Now().UTC().Format(time.RFC3339)
	}
	raw, err := json.Marshal(lc)
	if err != nil {
		panic("balancer: Calibration.Set: " + err.Error())
	}
	cal.put(renderer, loop, raw)
	cal.set[[2]string{renderer, loop}] = raw
}

func (cal *Calibration) put(renderer, loop string, raw json.RawMessage) {
	if cal.renderers[renderer] == nil {
		// A renderer entry that was not an object is replaced by this one.
		delete(cal.badRender, renderer)
		cal.renderers[renderer] = map[string]json.RawMessage{}
	}
	cal.renderers[renderer][loop] = raw
}

// Save writes the calibration to Path, creating its directory. It merges
// under an exclusive lock (fileio.Update: flock on a lock file beside it):
// the file is read again, and the entries Set since the load replace
// theirs, so that what another program saved in between is kept, however
// many save at once. It refuses to replace a file that is not a dpgl
// calibration of this version. The new file is written beside the old one
// and renamed over it.
func (cal *Calibration) Save() error {
	if cal.foreign != nil {
		return fmt.Errorf("balancer: not saving the calibration: %w", cal.foreign)
	}
	path := cal.Path
	// Write through a symbolic link, not over it.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	now := &Calibration{Path: path}
	err := fileio.Update(path, func(old []byte) ([]byte, error) {
		now.reset()
		if old != nil {
			if err := now.parse(old); err != nil {
				var ce *CalibrationError
				if errors.As(err, &ce) && ce.Foreign {
					return nil, fmt.Errorf("balancer: not saving the calibration: %w", err)
				}
			}
		}
		for k, raw := range cal.set {
			now.put(k[0], k[1], raw)
		}
		out := map[string]any{}
		for k, v := range now.top {
			out[k] = v
		}
		out["format"], out["version"] = calibrationFormat, calibrationVersion
		renderers := map[string]json.RawMessage{}
		for r, raw := range now.badRender {
			renderers[r] = raw
		}
		for r, loops := range now.renderers {
			raw, err := json.Marshal(loops)
			if err != nil {
				return nil, fmt.Errorf("balancer: saving calibration to %s: %v", cal.Path, err)
			}
			renderers[r] = raw
		}
		out["renderers"] = renderers
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("balancer: saving calibration to %s: %v", cal.Path, err)
		}
		return append(data, '\n'), nil
	})
	if err != nil {
		if strings.HasPrefix(err.Error(), "balancer: ") {
			return err
		}
		return fmt.Errorf("balancer: saving calibration to %s: %v", cal.Path, err)
	}
	cal.top, cal.renderers, cal.badRender = now.top, now.renderers, now.badRender
	return nil
}
