package fileio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when f runs longer than d: a hang detector.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v", what, d)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// TestWriteFaultKeepsOld: a write that fails at every byte count (a disk
// full after N bytes) leaves the old file's bytes and no temporary file.
func TestWriteFaultKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.png")
	old := []byte("the previous run's valid file")
	if err := os.WriteFile(path, old, 0o640); err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("new bytes "), 100)
	for _, n := range []int64{0, 1, 7, 512, int64(len(data)) - 1} {
		prev := SetFailAfter(n)
		err := WriteFile(path, data)
		SetFailAfter(prev)
		if err == nil || !strings.Contains(err.Error(), "no space") || !strings.Contains(err.Error(), path) {
			t.Fatalf("fail after %d: err %v, want ENOSPC naming %s", n, err, path)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, old) {
			t.Fatalf("fail after %d: the file holds %q, want the old bytes", n, got)
		}
		if got := names(t, dir); len(got) != 1 {
			t.Fatalf("fail after %d: the folder holds %v, want only out.png", n, got)
		}
	}
	if err := WriteFile(path, data); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if !bytes.Equal(got, data) || fi.Mode().Perm() != 0o640 {
		t.Fatalf("after a good write: %d bytes, mode %v; want %d bytes, the old mode 0640", len(got), fi.Mode().Perm(), len(data))
	}
}

// TestBatchAllOrNothing: a batch whose third file fails leaves the folder
// exactly as it was; one that succeeds replaces every file.
func TestBatchAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.png", "b.png", "c.csv"} {
		os.WriteFile(filepath.Join(dir, n), []byte("old "+n), 0o644)
	}
	b, err := NewBatch(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Write("a.png", []byte("new a")); err != nil {
		t.Fatal(err)
	}
	if err := b.Write("b.png", []byte("new b")); err != nil {
		t.Fatal(err)
	}
	prev := SetFailAfter(3)
	err = b.Write("c.csv", []byte("new c"))
	SetFailAfter(prev)
	if err == nil {
		t.Fatal("an injected fault did not fail the write")
	}
	if b.Commit() == nil {
		t.Fatal("a batch with a failed write committed")
	}
	for _, n := range []string{"a.png", "b.png", "c.csv"} {
		if got, _ := os.ReadFile(filepath.Join(dir, n)); string(got) != "old "+n {
			t.Errorf("%s holds %q after a failed batch, want the old bytes", n, got)
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("folder holds %v after a failed batch", got)
	}
	b, _ = NewBatch(dir)
	for _, n := range []string{"a.png", "d.json"} {
		if err := b.Write(n, []byte("new "+n)); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.png")); string(got) != "old a.png" {
		t.Fatalf("a.png replaced before Commit: %q", got)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); strings.Join(got, " ") != "a.png b.png c.csv d.json" {
		t.Fatalf("folder holds %v after a commit", got)
	}
}

// TestRefuseInput: a result is never written over one of the run's inputs,
// whatever name reaches it (a hard link, a symbolic link).
func TestRefuseInput(t *testing.T) {
	defer ResetInputs()
	dir := t.TempDir()
	in := filepath.Join(dir, "mesh.ply")
	os.WriteFile(in, []byte("ply input"), 0o644)
	f, err := Open(in)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	hard, sym := filepath.Join(dir, "hard.png"), filepath.Join(dir, "sym.png")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	os.Symlink(in, sym)
	for _, p := range []string{in, hard, sym} {
		err := WriteFile(p, []byte("screenshot"))
		if err == nil || !strings.Contains(err.Error(), "inputs") {
			t.Errorf("writing %s: err %v, want a refusal naming the input", p, err)
		}
	}
	if got, _ := os.ReadFile(in); string(got) != "ply input" {
		t.Fatalf("the input holds %q", got)
	}
	b, _ := NewBatch(dir)
	if err := b.Write("hard.png", []byte("x")); err == nil {
		t.Fatal("a batch wrote over an input")
	}
	if got := names(t, dir); len(got) != 3 {
		t.Fatalf("folder holds %v", got)
	}
}

// TestOpenSpecial: a FIFO with no writer, a device and a folder are
// refused at once; with DPGL_ALLOW_SPECIAL=1 a device is read.
func TestOpenSpecial(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.nii")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "FIFO"}, {"/dev/zero", "character device"}, {"/dev/null", "character device"}, {dir, "folder"},
	} {
		within(t, 5*time.Second, "Open "+c.path, func() {
			f, err := Open(c.path)
			if err == nil {
				f.Close()
				t.Errorf("Open(%s) succeeded", c.path)
				return
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("Open(%s): %v, want %q and the path", c.path, err, c.want)
			}
		})
	}
	t.Setenv(AllowSpecialEnv, "1")
	f, err := Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	var b [4]byte
	if n, err := f.Read(b[:]); n != 4 || err != nil {
		t.Fatalf("reading /dev/zero with %s=1: %d, %v", AllowSpecialEnv, n, err)
	}
	f.Close()
}

// TestReadFileLimit: a file larger than its limit is refused by its size.
func TestReadFileLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, make([]byte, 100), 0o644)
	if _, err := ReadFile(p, 99); err == nil || !strings.Contains(err.Error(), "100 bytes") {
		t.Fatalf("err %v", err)
	}
	if d, err := ReadFile(p, 100); err != nil || len(d) != 100 {
		t.Fatalf("%d bytes, %v", len(d), err)
	}
}

// TestUpdateConcurrent: processes that each add their own key through
// Update, at once, lose none: 6 processes, 10 rounds (package balancer tests
// its calibration file so over 40).
func TestUpdateConcurrent(t *testing.T) {
	if os.Getenv("FILEIO_UPDATER") != "" {
		return // the child's part is in TestMain
	}
	const writers, rounds = 6, 10
	path := filepath.Join(t.TempDir(), "shared.json")
	for r := 0; r < rounds; r++ {
		os.Remove(path)
		var cmds []*exec.Cmd
		for w := 0; w < writers; w++ {
			c := exec.Command(os.Args[0], "-test.run=^$")
			c.Env = append(os.Environ(), "FILEIO_UPDATER="+path, fmt.Sprintf("FILEIO_KEY=k%d", w))
			c.Stderr = os.Stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, c)
		}
		for _, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("round %d: a writer failed: %v", r, err)
			}
		}
		m := map[string]int{}
		data, _ := os.ReadFile(path)
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("round %d: %v: %q", r, err, data)
		}
		if len(m) != writers {
			t.Fatalf("round %d: %d of %d keys survived: %v", r, len(m), writers, m)
		}
	}
}

func TestMain(m *testing.M) {
	if path := os.Getenv("FILEIO_UPDATER"); path != "" {
		key := os.Getenv("FILEIO_KEY")
		err := Update(path, func(old []byte) ([]byte, error) {
			m := map[string]int{}
			if old != nil {
				if err := json.Unmarshal(old, &m); err != nil {
					return nil, err
				}
			}
			// Widen the window between read and write, where an
			// unlocked read-modify-write loses keys.
			time.Sleep(2 * time.Millisecond)
			m[key]++
			return json.Marshal(m)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
