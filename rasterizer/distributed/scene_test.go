package distributed

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// TestAgree: every rank gets the same error, naming each failed rank
// once, ranks that failed alike together; no failure, no error.
func TestAgree(t *testing.T) {
	long := strings.Repeat("x", 1000)
	cases := []struct {
		errs []error
		want string
	}{
		{[]error{nil, nil, nil}, ""},
		{[]error{nil, errors.New("lost"), nil}, "phase failed: rank 1: lost"},
		{[]error{errors.New("bad file"), errors.New("bad file"), errors.New("other")}, "phase failed: rank 0,1: bad file; rank 2: other"},
		{[]error{errors.New("")}, "phase failed: rank 0: "},
		{[]error{nil, errors.New(long)}, "phase failed: rank 1: " + long[:396] + "..."},
	}
	for _, tc := range cases {
		comms := Local(len(tc.errs))
		got := make([]string, len(comms))
		var wg sync.WaitGroup
		for r, c := range comms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := Agree(c, "phase", tc.errs[r]); err != nil {
					got[r] = err.Error()
				}
			}()
		}
		wg.Wait()
		for r, g := range got {
			if g != tc.want {
				t.Fatalf("%v: rank %d got %q, want %q", tc.errs, r, g, tc.want)
			}
		}
	}
}

// sceneRig is a renderer per rank on the test's context: the ranks of
// Local are goroutines, each with its own renderer, as MPI processes
// would each have theirs.
type sceneRig struct {
	sc  *scan.Scanner
	rs  []*rasterizer.Renderer
	all *rasterizer.Renderer // the single-process frame
}

func newSceneRig(t *testing.T, ranks, w, h int) *sceneRig {
	c := gputest.Context(t)
	sc, err := scan.New(c)
	if err != nil {
		t.Fatal(err)
	}
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = w, h
	quiet := func(string, ...any) {}
	o.ScanConversion.Logf, o.ZBuffer.Logf = quiet, quiet
	rig := &sceneRig{sc: sc}
	t.Cleanup(func() {
		for _, r := range rig.rs {
			r.Delete()
		}
		if rig.all != nil {
			rig.all.Delete()
		}
		sc.Delete()
	})
	for range ranks + 1 {
		r, err := rasterizer.New(sc, o)
		if err != nil {
			t.Fatal(err)
		}
		rig.rs = append(rig.rs, r)
	}
	rig.rs, rig.all = rig.rs[:ranks], rig.rs[ranks]
	return rig
}

// TestScene: on 1 to 3 in-process ranks, the triangles and the bricks
// of the perforator's surface, every policy, both resolves, two views of
// two frames each (the boundaries move between and, under
// LeftRightHandoff, within them): rank 0's composited words and pixels
// equal one renderer's frame of the whole mesh bit for bit, and the
// frame statistics are the same at every rank.
func TestScene(t *testing.T) {
	const w, h = 64, 48
	f := volume.PerforatorJet()
	vol := f.SampleCube(12)
	m := isosurface.MarchingCubes(vol, f.Iso)
	lo, hi, _ := m.Bounds()
	c := gputest.Context(t)
	whole, err := mesh.Upload(c, m)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Delete()
	samples, err := FieldSamples(f, vol.Dims)
	if err != nil {
		t.Fatal(err)
	}
	for ranks := 1; ranks <= 3; ranks++ {
		rig := newSceneRig(t, ranks, w, h)
		for _, split := range []string{"triangles", "bricks"} {
			for _, pol := range []Policy{Static, CostEffective, LeftRightHandoff} {
				for _, atRanks := range []bool{false, true} {
					name := fmt.Sprintf("%d ranks, %s, %v, resolve at ranks %v", ranks, split, pol, atRanks)
					runScene(t, name, rig, m, whole, samples, f.Iso, split, SceneOptions{Policy: pol, Slabs: 3, ResolveAtRanks: atRanks}, lo, hi)
				}
			}
		}
	}
}

func runScene(t *testing.T, name string, rig *sceneRig, m *mesh.Mesh, whole *mesh.GPU, samples Samples, iso float32, split string, o SceneOptions, lo, hi [3]float32) {
	t.Helper()
	c := gputest.Context(t)
	comms := Local(len(rig.rs))
	w, h := rig.all.Options().Width, rig.all.Options().Height
	stats := make([][]FrameStats, len(comms))
	errs := make([]error, len(comms))
	var vis []uint64
	var pix []uint32
	var differ []string
	var wg sync.WaitGroup
	for r, comm := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var src *Source
			if split == "triangles" {
				src = Triangles(c, m)
			} else {
				b, err := NewBricks(comm, c, samples, iso)
				if err != nil {
					errs[r] = err
					return
				}
				src = b.Source
			}
			sc, err := NewScene(comm, rig.rs[r], src, o)
			if err != nil {
				errs[r] = err
				return
			}
			defer sc.Delete()
			for _, v := range []view.View{view.Paper()[1], view.Paper()[3]} {
				cam := v.Fit(lo, hi, w, h)
				for frame := 0; frame < 2; frame++ {
					st, err := sc.Frame(cam, v.Name)
					if err != nil {
						errs[r] = err
						return
					}
					stats[r] = append(stats[r], st)
					if r != 0 {
						continue
					}
					vis = append(vis[:0], sc.Visibility()...)
					pix = append(pix[:0], sc.Pixels()...)
					var p []uint32
					if o.ResolveAtRanks {
						p = pix
					}
					n, err := Compare(rig.all, whole, cam, vis, p)
					if err != nil {
						errs[r] = err
						return
					}
					if n > 0 {
						differ = append(differ, fmt.Sprintf("%s frame %d: %d pixels differ", v.Name, frame, n))
					}
				}
			}
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("%s: rank %d: %v", name, r, err)
		}
	}
	if len(differ) > 0 {
		t.Fatalf("%s: %s", name, strings.Join(differ, "; "))
	}
	for r := range stats {
		if len(stats[r]) != 4 {
			t.Fatalf("%s: rank %d has %d frames' stats, want 4", name, r, len(stats[r]))
		}
		for i, st := range stats[r] {
			z := stats[0][i]
			if fmt.Sprint(st.Rank, st.Handoffs, st.Units) != fmt.Sprint(z.Rank, z.Handoffs, z.Units) || len(st.Rank) != len(rig.rs) {
				t.Fatalf("%s: frame %d: rank %d's stats %+v, rank 0's %+v", name, i, r, st, z)
			}
		}
	}
}

// TestSceneFailure: a rank whose render fails makes every rank's Frame
// return the same error, naming it and the phase; the scene is deleted
// without leaking.
func TestSceneFailure(t *testing.T) {
	rig := newSceneRig(t, 3, 32, 32)
	c := gputest.Context(t)
	f := volume.PerforatorJet()
	m := isosurface.MarchingCubes(f.SampleCube(10), f.Iso)
	lo, hi, _ := m.Bounds()
	for _, pol := range []Policy{Static, LeftRightHandoff} {
		comms := Local(3)
		errs := make([]error, 3)
		var wg sync.WaitGroup
		for r, comm := range comms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				o := SceneOptions{Policy: pol, Label: "test set"}
				if r == 1 {
					o.Inject = func(error) error { return errors.New("lost context") }
				}
				sc, err := NewScene(comm, rig.rs[r], Triangles(c, m), o)
				if err != nil {
					errs[r] = err
					return
				}
				defer sc.Delete()
				_, errs[r] = sc.Frame(view.Paper()[0].Fit(lo, hi, 32, 32), "(0,0)")
			}()
		}
		wg.Wait()
		want := "rendering the test set at (0,0) failed: rank 1: lost context"
		for r, err := range errs {
			if err == nil || err.Error() != want {
				t.Fatalf("%v: rank %d: %v, want %q", pol, r, err, want)
			}
		}
	}
}
