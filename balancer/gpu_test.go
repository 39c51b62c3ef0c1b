package balancer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// The tests share one Scanner: its scratch and programs are reused.
var shared struct {
	once sync.Once
	s    *scan.Scanner
	err  error
}

func scanner(t testing.TB) *scan.Scanner {
	t.Helper()
	c := gputest.Context(t)
	shared.once.Do(func() { shared.s, shared.err = scan.New(c) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.s
}

func newLoop[T any](t *testing.T, cfg Config) *Loop[T] {
	t.Helper()
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	l, err := NewLoop[T](scanner(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Delete)
	return l
}

func download[T any](a gpu.Array[T]) []T {
	out := make([]T, a.Len())
	a.Read(0, out)
	return out
}

// The paper's worked example, exactly, on the GPU.
func TestWorkedExampleGPU(t *testing.T) {
	l := newLoop[float32](t, Config{Name: "example"})
	if err := l.Load([]uint32{100, 19, 0, 0, 0, 0, 0}, []uint32{1, 1, 0, 0, 0, 0, 0}, []float32{1, 2, 0, 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	in := l.Gather()
	want := Info{Processors: 7, NumIdle: 5, MaxWorkload: 100, SumWorkload: 119, MinActive: 19, Full: true,
		Avg: 17, NumMasked: 2, MaskedSum: 119, MaxNew: 20, MinNew: 19, TotalAssigned: 6}
	if in != want {
		t.Fatalf("gathering:\n got %+v\nwant %+v", in, want)
	}
	if in.Savings() != 80 {
		t.Fatalf("savings %d", in.Savings())
	}
	a, v := l.Assignment(in)
	eq(t, "assignment", a, []uint32{5, 1, 0, 0, 0, 0, 0})
	eq(t, "new_workload_values", v, []uint32{20, 19, 0, 0, 0, 0, 0})
	l.Redistribute(in)
	eq(t, "new_workload", download[uint32](l.Workload()), []uint32{20, 20, 20, 20, 20, 19, 0})
	eq(t, "parallel_index", download[uint32](l.ParallelIndex()), []uint32{1, 21, 41, 61, 81, 1, 0})
	eq(t, "problem_data", download[float32](l.Problem()), []float32{1, 1, 1, 1, 1, 2, 0})
	if got := l.Count(); got != in.afterRedistribution() {
		t.Fatalf("count after redistribution %+v, want %+v", got, in.afterRedistribution())
	}
}

// sizes are the processor counts the kernel tests run: 0, 1, around the
// work group (256) and a gathering tile (1024), many groups.
var sizes = []int{0, 1, 2, 7, 255, 256, 257, 1023, 1024, 1025, 4097, 70001}

// workloadFor draws p workloads of a mix of shapes, some near 2^32 so that
// the 64-bit sums and products matter.
func workloadFor(r *rand.Rand, p, shape int) []uint32 {
	w := make([]uint32, p)
	for i := range w {
		switch shape {
		case 0: // small, many idle
			if r.IntN(3) > 0 {
				w[i] = uint32(r.IntN(50))
			}
		case 1: // huge
			if r.IntN(4) > 0 {
				w[i] = 0xFFFFFFFF - uint32(r.IntN(1000))
			}
		case 2: // one heavy
			w[i] = uint32(r.IntN(3))
		default: // all equal
			w[i] = 9
		}
	}
	if shape == 2 && p > 0 {
		w[r.IntN(p)] = 1e6
	}
	return w
}

// The gathering kernels against the model, at edge sizes.
func TestGatherMatchesModel(t *testing.T) {
	r := gputest.Rand(t)
	for _, v := range []Variant{IntegerSteps, Unmasked, Footnote1} {
		l := newLoop[uint32](t, Config{Variant: v})
		for _, p := range sizes {
			for shape := 0; shape < 4; shape++ {
				w := workloadFor(r, p, shape)
				if shape == 1 && p > 0 && p < 10 {
					for i := range w { // the largest workload, which is also the minima's start
						w[i] = 0xFFFFFFFF
					}
				}
				if err := l.Load(w, nil, problems(p)); err != nil {
					t.Fatal(err)
				}
				m := NewModel(v, w, nil, problems(p))
				if got, want := l.Count(), m.Count(); got != want {
					t.Fatalf("%v P=%d shape %d: count\n got %+v\nwant %+v", v, p, shape, got, want)
				}
				if got, want := l.Gather(), m.Gather(); got != want {
					t.Fatalf("%v P=%d shape %d: gathering\n got %+v\nwant %+v", v, p, shape, got, want)
				}
			}
		}
	}
}

// record is a problem of several words, as the renderer's are.
type record struct {
	A, B, C, D, E uint32
}

// Redistribution against the model, with the arrays' unused tail as a
// guard region: placed as a run places it right after its gathering (which
// keeps the assignment and its tiles' sums where a redistribution may
// follow), as Redistribute places it on its own (by the blocks' owners
// where the blocks are small), and by search (as where a block may be
// large).
func TestRedistributeMatchesModel(t *testing.T) {
	r := gputest.Rand(t)
	tiled, owners := 0, 0
	for _, v := range []Variant{IntegerSteps, Unmasked, Footnote1} {
		for _, mode := range []string{"kept", "alone", "search"} {
			l := newLoop[record](t, Config{Variant: v})
			l.placeBySearch = mode == "search"
			if err := l.Resize(80000); err != nil { // room for the guard
				t.Fatal(err)
			}
			for _, p := range sizes {
				for shape := 0; shape < 4; shape++ {
					name := fmt.Sprintf("%v P=%d shape %d (%s)", v, p, shape, mode)
					w := workloadFor(r, p, shape)
					pi := make([]uint32, p)
					pr := make([]record, p)
					for i := range pi {
						pi[i] = r.Uint32()
						pr[i] = record{uint32(i), r.Uint32(), r.Uint32(), r.Uint32(), 7}
					}
					if err := l.Load(w, pi, pr); err != nil {
						t.Fatal(err)
					}
					guard := func(what string) {
						for _, b := range []*gpu.Buffer[uint32]{l.cur.workload, l.cur.parallelIndex, l.next.workload, l.next.parallelIndex} {
							if what == "fill" {
								b.FillRange(p, b.Len()-p, 0xDEADBEEF)
								continue
							}
							for k, x := range download[uint32](b.Slice(p, b.Len()-p)) {
								if x != 0xDEADBEEF {
									t.Fatalf("%s: redistribution wrote %d at %d, past the processors", name, x, p+k)
								}
							}
						}
						bad := record{0xDEADBEEF, 1, 2, 3, 4}
						for _, b := range []*gpu.Buffer[record]{l.cur.problem, l.next.problem} {
							if what == "fill" {
								b.FillRange(p, b.Len()-p, bad)
								continue
							}
							for k, x := range download[record](b.Slice(p, b.Len()-p)) {
								if x != bad {
									t.Fatalf("%s: redistribution wrote problem %v at %d, past the processors", name, x, p+k)
								}
							}
						}
					}
					guard("fill")
					m := NewModel(v, w, pi, pr)
					gm := &gpuMachine[record]{l: l} // a run's machine
					var in Info
					if mode == "kept" {
						in = gm.gather(0, nil)
					} else {
						in = l.Gather()
					}
					if want := m.Gather(); in != want {
						t.Fatalf("%s: gathering\n got %+v\nwant %+v", name, in, want)
					}
					if in.Oversubscribed > 0 {
						continue // Footnote1's blocks do not fit: nothing to redistribute
					}
					ma, mv := m.Assignment(in)
					if mode != "kept" { // Assignment would write the kept assignment again
						ga, gv := l.Assignment(in)
						if p > 0 {
							eq(t, name+": assignment", ga, ma)
							eq(t, name+": new workload values", gv, mv)
						}
					}
					l.Count()                            // the redistribution must not depend on what ran since the gathering
					block := uint64(maxBlock(v, in)) * 6 // record's words and the workload
					if mode == "kept" {
						if gm.assigned && 16*block <= maxScatterLoop {
							tiled++
						}
						gm.redistribute(0, in)
					} else {
						if mode == "alone" && p > 0 && block <= maxScatterLoop {
							owners++
						}
						l.Redistribute(in)
					}
					m.Redistribute(in)
					guard("check")
					eq(t, name+": workload", download[uint32](l.Workload()), m.Workload)
					eq(t, name+": parallelIndex", download[uint32](l.ParallelIndex()), m.ParallelIndex)
					eq(t, name+": problem", download[record](l.Problem()), m.Problem)
				}
			}
		}
	}
	if tiled == 0 || owners == 0 {
		t.Fatalf("%d redistributions placed from the kept tiles' sums, %d by owners: want both", tiled, owners)
	}
}

// tally is the tests' solution phase: shaders/balancer/synthetic.comp
// counting every (problem, task) pair solved.
type tally struct {
	c        *gpu.Context
	prog     *gpu.Program
	problems *gpu.Buffer[[4]uint32] // start, first task, tasks
	counts   *gpu.Buffer[uint32]
	errors   *gpu.Buffer[uint32]
	w, first []uint32
}

func newTally(t *testing.T, c *gpu.Context, w, first []uint32) *tally {
	t.Helper()
	ta := &tally{c: c, w: w, first: first}
	ta.prog = c.MustProgram("balancer/synthetic.comp", map[string]string{"MODE": "0"})
	pr := make([][4]uint32, len(w))
	total := uint32(0)
	for i := range w {
		pr[i] = [4]uint32{total, first[i], w[i], 0}
		total += w[i]
	}
	var err error
	if ta.problems, err = gpu.NewBufferFrom(c, append(pr, [4]uint32{})); err != nil {
		t.Fatal(err)
	}
	if ta.counts, err = gpu.NewBuffer[uint32](c, int(total)+1); err != nil {
		t.Fatal(err)
	}
	if ta.errors, err = gpu.NewBuffer[uint32](c, 4); err != nil {
		t.Fatal(err)
	}
	return ta
}

func (ta *tally) Solve(it *Iteration) {
	ta.c.BindStorage(FirstFreeBinding, ta.problems)
	ta.c.BindStorage(FirstFreeBinding+1, ta.counts)
	ta.c.BindStorage(FirstFreeBinding+2, ta.errors)
	it.Dispatch(ta.prog)
}

// check fails unless every task was solved exactly once.
func (ta *tally) check() error {
	e := ta.errors.Download()
	if e[0] != 0 {
		return fmt.Errorf("%d tasks outside their problem's range, the first task %d of problem %d", e[0], e[2], e[1])
	}
	got := ta.counts.Download()
	at := 0
	for p, n := range ta.w {
		for k := uint32(0); k < n; k++ {
			if got[at] != 1 {
				return fmt.Errorf("task %d of problem %d solved %d times", ta.first[p]+k, p, got[at])
			}
			at++
		}
	}
	return nil
}

func (ta *tally) delete() {
	ta.problems.Delete()
	ta.counts.Delete()
	ta.errors.Delete()
}

// Random workloads under every policy on the GPU: every (problem, task)
// solved exactly once, and the run equal to the model's: the same
// iterations, balancing operations, gatherings and counts.
func TestPropertiesGPU(t *testing.T) {
	c := gputest.Context(t)
	r := gputest.Rand(t)
	n := 1000
	if testing.Short() {
		n = 100
	}
	if os.Getenv("DPGL_LONG") != "" {
		n = 10000
	}
	loops := map[Variant]*Loop[uint32]{IntegerSteps: newLoop[uint32](t, Config{}), Unmasked: newLoop[uint32](t, Config{Variant: Unmasked}),
		Footnote1: newLoop[uint32](t, Config{Variant: Footnote1})}
	runs := 0
	for i := 0; i < n; i++ {
		cs := drawCase(r, 600, 24)
		if i < 8 { // P not a multiple of the group, and a few groups
			cs.p = []int{63, 65, 127, 129, 255, 257, 1000, 2049}[i]
			cs.w = workloadFor(r, cs.p, i%4)
			for k := range cs.w {
				cs.w[k] %= 30
			}
			cs.pi = make([]uint32, cs.p)
		}
		v := Variant(i % variants)
		cost := float64(1 + r.IntN(12))
		lanes := 0
		if r.IntN(3) == 0 {
			lanes = 1 + r.IntN(cs.p)
		}
		l := loops[v]
		for _, pol := range Policies {
			ta := newTally(t, c, cs.w, cs.pi)
			cfg := Config{Name: "prop", Policy: pol, Variant: v, CostIterations: cost, Lanes: lanes, Logf: func(string, ...any) {}}
			if err := l.SetConfig(cfg); err != nil {
				t.Fatal(err)
			}
			if err := l.Load(cs.w, cs.pi, problems(cs.p)); err != nil {
				t.Fatal(err)
			}
			st, err := l.Run(ta)
			if err == nil {
				err = ta.check()
			}
			ta.delete()
			name := fmt.Sprintf("case %d (%v, %v, %v, cost %v, lanes %d)", i, cs, v, pol, cost, lanes)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := Simulate(NewModel(v, cs.w, cs.pi, problems(cs.p)), cfg, nil, nil)
			if st.Iterations != want.Iterations || st.Balances != want.Balances || st.Gathers != want.Gathers ||
				st.Counts != want.Counts || st.Savings != want.Savings || st.Start != want.Start {
				t.Fatalf("%s: GPU run\n %+v\nmodel\n %+v", name, st, want)
			}
			if st.Solve.N != st.Iterations || st.Gather.N != st.Gathers || st.Redistribute.N != st.Balances || st.Count.N != st.Counts {
				t.Fatalf("%s: timed phases %v %v %v %v for %d iterations %d gathers %d balances %d counts", name,
					st.Solve, st.Gather, st.Redistribute, st.Count, st.Iterations, st.Gathers, st.Balances, st.Counts)
			}
			if w := download[uint32](l.Workload()); !reflect.DeepEqual(w, make([]uint32, cs.p)) {
				t.Fatalf("%s: workload left %v", name, w)
			}
			runs++
		}
	}
	t.Logf("%d runs of %d random workloads", runs, n)
}
