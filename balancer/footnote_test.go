package balancer

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// The example that told Footnote1 and Unmasked apart: w = 90 10 0 0. The
// footnote gives each active processor floor(w*P/S) = floor(3.6), floor(0.4)
// -> at least 1: 3 and 1, new maximum 30; Unmasked shares only the two idle
// processors, floor(90*2/100)+1 = 2 and 1, new maximum 45; the integer steps
// mask the 10 (below the average 25) and give the 90 both idle ones.
func TestFootnote1IssueExample(t *testing.T) {
	w := []uint32{90, 10, 0, 0}
	for _, c := range []struct {
		v          Variant
		assignment []uint32
		maxNew     uint32
		workload   []uint32
	}{
		{IntegerSteps, []uint32{3, 1, 0, 0}, 30, []uint32{30, 30, 30, 10}},
		{Unmasked, []uint32{2, 1, 0, 0}, 45, []uint32{45, 45, 10, 0}},
		{Footnote1, []uint32{3, 1, 0, 0}, 30, []uint32{30, 30, 30, 10}},
	} {
		m := NewModel(c.v, w, nil, problems(4))
		in := m.Gather()
		a, _ := m.Assignment(in)
		eq(t, c.v.String()+" assignment", a, c.assignment)
		if in.MaxNew != c.maxNew || in.Savings() != 90-c.maxNew || in.Oversubscribed != 0 {
			t.Fatalf("%v: %+v, want MAX(new) %d", c.v, in, c.maxNew)
		}
		m.Redistribute(in)
		eq(t, c.v.String()+" new workload", m.Workload, c.workload)
	}
}

// The paper's worked example under the footnote: floor(100*7/119) = 5 and
// floor(19*7/119) = 1, the integer steps' assignment.
func TestFootnote1WorkedExample(t *testing.T) {
	m := NewModel(Footnote1, []uint32{100, 19, 0, 0, 0, 0, 0}, nil, problems(7))
	in := m.Gather()
	a, v := m.Assignment(in)
	eq(t, "assignment", a, []uint32{5, 1, 0, 0, 0, 0, 0})
	eq(t, "new_workload_values", v, []uint32{20, 19, 0, 0, 0, 0, 0})
	if in.Savings() != 80 || in.TotalAssigned != 6 {
		t.Fatalf("gathering %+v", in)
	}
}

// When the light processors' max(1, ·) asks for more than P processors the
// blocks do not fit: w = 97 1 1 1 asks floor(3.88) = 3 and 1 1 1, six
// processors of four. The gathering says so and saves nothing, so no policy
// redistributes then; redistributing it anyway is misuse. One iteration
// later the light ones are idle and 96 0 0 0 fits: 4 blocks of 24.
func TestFootnote1Oversubscribed(t *testing.T) {
	w := []uint32{97, 1, 1, 1}
	m := NewModel(Footnote1, w, nil, problems(4))
	in := m.Gather()
	want := Info{Processors: 4, MaxWorkload: 97, SumWorkload: 100, MinActive: 1, Full: true, Avg: 25,
		NumMasked: 4, MaskedSum: 100, MaxNew: 97, MinNew: 1, TotalAssigned: 4, Oversubscribed: 6}
	if in != want {
		t.Fatalf("gathering\n got %+v\nwant %+v", in, want)
	}
	a, _ := m.Assignment(in)
	eq(t, "assignment asked for", a, []uint32{3, 1, 1, 1})
	for _, pol := range Policies {
		st := Simulate(NewModel(Footnote1, w, nil, problems(4)), Config{Policy: pol, Variant: Footnote1, CostIterations: 1}, nil, nil)
		want := [2]int{1, 1 + 24}
		if pol == Never {
			want = [2]int{0, 97}
		}
		if got := [2]int{st.Balances, st.Iterations}; got != want {
			t.Fatalf("%v: balances and iterations %v, want %v", pol, got, want)
		}
	}
	defer func() {
		if msg, _ := recover().(string); !strings.Contains(msg, "asks for 6 processors of 4") {
			t.Fatalf("Redistribute of an oversubscribed gathering: panic %q", msg)
		}
	}()
	m.Redistribute(in)
}

// plainFootnote1 is footnote 1 without the package's code: each active
// processor's share floor(w*P/S) of the P processors in exact rationals, at
// least 1 and at most w (no processor without a task); its w tasks dealt out
// in chunks of ceil(w/a), left to right. It returns the new workload, which
// fits when it has at most P entries.
func plainFootnote1(w []uint32) []uint32 {
	s := new(big.Int)
	for _, x := range w {
		s.Add(s, big.NewInt(int64(x)))
	}
	var out []uint32
	for _, x := range w {
		if x == 0 {
			continue
		}
		share := new(big.Int).Mul(big.NewInt(int64(x)), big.NewInt(int64(len(w))))
		share.Quo(share, s) // floor: both are positive
		a := min(max(share.Int64(), 1), int64(x))
		chunk := (int64(x) + a - 1) / a
		for left := int64(x); left > 0; left -= chunk {
			out = append(out, uint32(min(chunk, left)))
		}
	}
	return out
}

// Footnote1 against the plain model on random and adversarial workloads:
// the same new workload when it fits, Oversubscribed with the processors
// asked for when not.
func TestFootnote1MatchesPlainModel(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	cases := [][]uint32{{1}, {0}, {7}, {0, 0, 5}, {4e9, 0, 0, 0}, {4e9, 4e9, 0}, {5, 5, 5, 5}, {2, 1, 0, 0, 0, 0, 0, 0, 0}}
	for i := 0; i < 3000; i++ {
		cases = append(cases, drawCase(r, 300, 1+uint32(r.IntN(2000))).w)
	}
	fits, over := 0, 0
	for i, w := range cases {
		m := NewModel(Footnote1, w, nil, problems(len(w)))
		in := m.Gather()
		want := plainFootnote1(w)
		if len(want) > len(w) {
			over++
			if in.Oversubscribed != len(want) || in.Savings() != 0 || in.MaxNew != in.MaxWorkload {
				t.Fatalf("case %d %v: plain model needs %d processors; gathering %+v", i, w, len(want), in)
			}
			continue
		}
		fits++
		if in.Oversubscribed != 0 || in.TotalAssigned != len(want) {
			t.Fatalf("case %d %v: plain model %v fits; gathering %+v", i, w, want, in)
		}
		m.Redistribute(in)
		want = append(want, make([]uint32, len(w)-len(want))...)
		eq(t, "new workload", m.Workload, want)
		if c := m.Count(); c != in.afterRedistribution() {
			t.Fatalf("case %d %v: counts %+v, predicted %+v", i, w, c, in.afterRedistribution())
		}
	}
	if fits < 100 || over < 100 {
		t.Fatalf("the cases do not cover both outcomes: %d fit, %d oversubscribed", fits, over)
	}
}

// The GPU's Footnote1 on the example and the oversubscribed one:
// the model's gatherings, the new workload, and a run under Always
// that solves every task.
func TestFootnote1GPU(t *testing.T) {
	c := gputest.Context(t)
	l := newLoop[uint32](t, Config{Variant: Footnote1})
	for _, w := range [][]uint32{{90, 10, 0, 0}, {97, 1, 1, 1}} {
		if err := l.Load(w, nil, problems(len(w))); err != nil {
			t.Fatal(err)
		}
		m := NewModel(Footnote1, w, nil, problems(len(w)))
		in := l.Gather()
		if want := m.Gather(); in != want {
			t.Fatalf("%v: gathering\n got %+v\nwant %+v", w, in, want)
		}
		if in.Oversubscribed == 0 {
			l.Redistribute(in)
			eq(t, "new workload", download[uint32](l.Workload()), []uint32{30, 30, 30, 10})
		}
		pi := make([]uint32, len(w))
		ta := newTally(t, c, w, pi)
		if err := l.SetConfig(Config{Name: "footnote", Policy: Always, Variant: Footnote1}); err != nil {
			t.Fatal(err)
		}
		if err := l.Load(w, pi, problems(len(w))); err != nil {
			t.Fatal(err)
		}
		st, err := l.Run(ta)
		if err == nil {
			err = ta.check()
		}
		ta.delete()
		if err != nil {
			t.Fatalf("%v: %v", w, err)
		}
		want := Simulate(NewModel(Footnote1, w, pi, problems(len(w))), Config{Policy: Always, Variant: Footnote1}, nil, nil)
		if st.Iterations != want.Iterations || st.Balances != want.Balances {
			t.Fatalf("%v: GPU %d iterations %d balances, model %d %d", w, st.Iterations, st.Balances, want.Iterations, want.Balances)
		}
		if err := l.SetConfig(Config{Variant: Footnote1}); err != nil {
			t.Fatal(err)
		}
	}
}
