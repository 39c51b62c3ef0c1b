package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dpgl/dpgl/internal/hostile"
)

// TestChaosInputs: the viewer never writes its screenshot over its own
// input (on main `-mesh m.png -screenshot m.png` replaced the mesh, exit
// 0), and a FIFO or a device given as -mesh or -volume is refused at once
// (on main open() blocked forever on a FIFO without a writer). Refusals
// come before the window: no display is needed.
func TestChaosInputs(t *testing.T) {
	dir := t.TempDir()
	mesh := filepath.Join(dir, "m.png") // a PLY file under an image's name
	data := hostile.Cube(1, 0).Bytes()
	if err := os.WriteFile(mesh, data, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	if err := os.Symlink(mesh, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "f.ply")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"DISPLAY=:4093", "WAYLAND_DISPLAY="}
	for _, c := range []struct {
		what string
		args []string
		want []string
	}{
		{"screenshot over the mesh", []string{"-mesh", mesh, "-screenshot", mesh}, []string{"-screenshot", "inputs"}},
		{"screenshot over a link to the mesh", []string{"-mesh", mesh, "-screenshot", link}, []string{"-screenshot", "inputs"}},
		{"FIFO mesh", []string{"-mesh", fifo}, []string{"-mesh", "f.ply", "FIFO"}},
		{"FIFO volume", []string{"-volume", fifo}, []string{"-volume", "f.ply", "FIFO"}},
		{"device mesh", []string{"-mesh", "/dev/zero"}, []string{"-mesh", "/dev/zero", "device"}},
	} {
		t.Run(c.what, func(t *testing.T) {
			r := hostile.RunWithin(t, 20*time.Second, "viewer", append([]string{"DPGL_VIEWER_MAIN=1"}, env...), c.args...)
			hostile.Refused(t, c.what, r, c.want...)
			if b, err := os.ReadFile(mesh); err != nil || string(b) != string(data) {
				t.Fatalf("the mesh changed: %d bytes, %v", len(b), err)
			}
		})
	}
}
