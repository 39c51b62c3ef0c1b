package pool_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/dpgl/dpgl/balancer/pool"
	"github.com/dpgl/dpgl/balancer/pool/pooltest"
)

type harnessCase struct {
	ranks  int
	cfg    Config
	faults Faults
	tree   *pooltest.Forest
}

func (c harnessCase) String() string {
	return fmt.Sprintf("%d ranks, %v, %v, faults %+v, %d tasks", c.ranks, c.cfg.Balance, c.cfg.Detector, c.faults, c.tree.Len())
}

// runHarness runs one task forest and returns what went wrong: a task run
// twice or never, termination declared while a task was left (early) or
// not declared within the time limit, counts that disagree.
func runHarness(c harnessCase) error {
	n := c.tree.Len()
	done := make([]atomic.Int32, n)
	var created, finished atomic.Int64
	created.Store(int64(len(c.tree.Roots)))
	var early atomic.Value
	cfg := c.cfg
	cfg.Timeout = 20 * time.Second
	cfg.OnDeclare = func() {
		if cr, fi := created.Load(), finished.Load(); cr != fi || fi != int64(n) {
			early.Store(fmt.Errorf("termination declared early: %d of %d tasks done, %d created", fi, n, cr))
		}
	}
	work := c.tree.Func(func(id uint32) error {
		if done[id].Add(1) != 1 {
			return fmt.Errorf("task %d run twice", id)
		}
		return nil
	}, func(children int) {
		created.Add(int64(children))
		finished.Add(1)
	})
	start := c.tree.Start(c.ranks, c.faults.Seed)
	tr := NewLocal(c.ranks, c.faults)
	stats := make([]Stats, c.ranks)
	errs := make([]error, c.ranks)
	var wg sync.WaitGroup
	for r := 0; r < c.ranks; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stats[r], errs[r] = Run(tr[r], cfg, start[r], work)
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	if err, _ := early.Load().(error); err != nil {
		return err
	}
	ran, made := 0, 0
	for _, s := range stats {
		ran += s.Tasks
		made += s.Created
	}
	for id := range done {
		if d := done[id].Load(); d != 1 {
			return fmt.Errorf("task %d run %d times", id, d)
		}
	}
	if ran != n || made != n {
		return fmt.Errorf("the ranks say they ran %d and created %d tasks of %d", ran, made, n)
	}
	if stats[0].Declared.IsZero() {
		return fmt.Errorf("rank 0 returned without declaring termination")
	}
	return nil
}

// harnessCases draws count cases from seed: 1..8 ranks, every pool and
// detector in turn, faults of every kind.
func harnessCases(seed uint64, count int) []harnessCase {
	rng := rand.New(rand.NewPCG(seed, 0xfa17))
	var out []harnessCase
	for i := 0; i < count; i++ {
		ranks := 1 + rng.IntN(8)
		d := Detectors()[i%len(Detectors())]
		b := Balances()[(i/len(Detectors()))%len(Balances())]
		pinned := 0.2
		switch d {
		case SinglePassRing:
			b, pinned = Static, 0
		case QueueEmpty:
			b, pinned = Centralized, 0
		}
		cfg := Config{Balance: b, Detector: d, Seed: rng.Uint64(), Threshold: rng.IntN(4)}
		if d == FixedEnergy && rng.IntN(2) == 0 {
			// Little energy, so that ranks run out of units to divide
			// and must ask rank 0 for more.
			cfg.Energy = uint64(4*ranks + rng.IntN(32))
		}
		f := Faults{Seed: rng.Uint64(), Reorder: rng.IntN(4) != 0}
		if rng.IntN(3) != 0 {
			f.Delay = time.Duration(rng.IntN(300)) * time.Microsecond
		}
		if rng.IntN(3) == 0 {
			f.HoldBack, f.HoldFor = 0.1, time.Duration(1+rng.IntN(3))*time.Millisecond
		}
		out = append(out, harnessCase{ranks, cfg, f, pooltest.RandomForest(rng, 200, ranks, pinned)})
	}
	return out
}

// TestHarness runs every detector under every pool over random task
// forests, messages delayed, reordered and held back.
func TestHarness(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 250
	}
	cases := harnessCases(1, count)
	var failed atomic.Int32
	var wg sync.WaitGroup
	next := make(chan harnessCase)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				if err := runHarness(c); err != nil {
					if failed.Add(1) <= 5 {
						t.Errorf("%v: %v", c, err)
					}
				}
			}
		}()
	}
	start := time.Now()
	for _, c := range cases {
		if failed.Load() > 5 {
			break
		}
		next <- c
	}
	close(next)
	wg.Wait()
	t.Logf("%d task forests in %v", len(cases), time.Since(start).Round(time.Millisecond))
}
