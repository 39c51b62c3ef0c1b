package pool_test

import (
	"fmt"
	"sync"

	"github.com/dpgl/dpgl/balancer/pool"
)

// Four ranks in one process count the nodes of a binary tree of depth 10,
// one task a node: rank 0 starts with the root, and random polling spreads
// the subtrees; the dual-pass ring ends it.
func Example() {
	const ranks = 4
	tr := pool.NewLocal(ranks, pool.Faults{})
	cfg := pool.Config{Balance: pool.RandomPolling, Detector: pool.DualPassRing, Seed: 1}
	stats := make([]pool.Stats, ranks)
	var wg sync.WaitGroup
	for r := 0; r < ranks; r++ {
		var start [][]byte
		if r == 0 {
			start = [][]byte{{0}} // a task is its depth
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			stats[r], err = pool.Run(tr[r], cfg, start, func(task []byte, out *pool.Out) error {
				if task[0] < 10 {
					out.Spawn([]byte{task[0] + 1})
					out.Spawn([]byte{task[0] + 1})
				}
				return nil
			})
			if err != nil {
				fmt.Println(err)
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, s := range stats {
		total += s.Tasks
	}
	fmt.Println("tasks run:", total)
	// Output:
	// tasks run: 2047
}
