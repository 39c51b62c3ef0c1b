package hostile

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// HangLimit ends a child that runs far longer than any acceptance case
// should (each is a second or less); it is a hang detector, not a timing.
const HangLimit = 60 * time.Second

// Result is what a command run as a child process did.
type Result struct {
	Code           int // exit status
	Stdout, Stderr string
	Took           time.Duration
	MaxRSS         int64 // the child's peak resident memory, bytes (0 where unknown)
}

// Run runs the test binary itself as a child process with args, env added
// to its environment (a variable such as DPGL_BENCH_MAIN=1 makes the
// binary's TestMain run the command's main), so that a panic, a hang or an
// exit status is seen as a user sees it. It fails the test only on a hang
// or when the child cannot start; name is the command, for messages.
func Run(t testing.TB, name string, env []string, args ...string) Result {
	t.Helper()
	return RunWithin(t, HangLimit, name, env, args...)
}

// RunWithin is Run with its own hang limit, for a case that must end far
// sooner than HangLimit (a refusal of a FIFO that must not wait for it).
func RunWithin(t testing.TB, limit time.Duration, name string, env []string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Took: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && cmd.ProcessState != nil {
		r.MaxRSS = ru.Maxrss << 10 // Linux counts kilobytes
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s %q hung: killed after %v\nstderr:\n%s", name, args, limit, r.Stderr)
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}

// Refused checks that a run failed as a user must see it: a status other
// than 0, no panic, and a last line naming every one of words.
func Refused(t testing.TB, what string, r Result, words ...string) {
	t.Helper()
	if r.Code == 0 || strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "goroutine ") {
		t.Fatalf("%s: exit status %d; want a refusal, not success or a panic\nstdout:\n%s\nstderr:\n%s", what, r.Code, r.Stdout, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	msg := lines[len(lines)-1]
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Fatalf("%s: message %q lacks %q", what, msg, w)
		}
	}
	if r.Took > time.Second {
		t.Logf("%s: refused after %v (want under a second)", what, r.Took.Round(time.Millisecond))
	}
}

// Coverage reads a PNG and returns the mask of its pixels whose colour is
// not bg, and how many they are.
func Coverage(t testing.TB, path string, bg color.RGBA) ([]bool, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	mask := make([]bool, 0, b.Dx()*b.Dy())
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			on := uint8(r>>8) != bg.R || uint8(g>>8) != bg.G || uint8(bb>>8) != bg.B
			mask = append(mask, on)
			if on {
				n++
			}
		}
	}
	return mask, n
}

// Snapshot is the bytes of every file in a folder (not its subfolders), by
// name: what a run must leave as it found it.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range es {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(dir + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// Unchanged fails the test unless dir holds exactly the files of before,
// byte for byte.
func Unchanged(t testing.TB, what, dir string, before map[string]string) {
	t.Helper()
	after := Snapshot(t, dir)
	for name, b := range before {
		a, ok := after[name]
		switch {
		case !ok:
			t.Errorf("%s: %s was removed", what, name)
		case a != b:
			t.Errorf("%s: %s was changed (%d bytes, was %d)", what, name, len(a), len(b))
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s was left behind", what, name)
		}
	}
}
