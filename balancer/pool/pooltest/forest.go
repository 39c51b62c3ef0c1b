// Package pooltest has random task forests for testing package pool: the
// in-process harness and bench pool -forests under mpirun both run them.
package pooltest

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/dpgl/dpgl/balancer/pool"
)

// Forest is a random forest of tasks: running node i makes its children,
// each free (Target -1) or sent to the rank Target names.
type Forest struct {
	Children [][]uint32
	Target   []int
	Roots    []uint32
}

// RandomForest draws a forest of 1..maxNodes nodes, from chains to bushes
// (each node's parent is one of the last w nodes before it, w drawn too),
// with the fraction pinned of its nodes sent to a random one of ranks.
func RandomForest(rng *rand.Rand, maxNodes, ranks int, pinned float64) *Forest {
	n := 1 + rng.IntN(maxNodes)
	window := 1 + rng.IntN(n)
	nroots := 1 + rng.IntN(min(n, 3))
	f := &Forest{Children: make([][]uint32, n), Target: make([]int, n)}
	for i := 0; i < n; i++ {
		f.Target[i] = -1
		if rng.Float64() < pinned {
			f.Target[i] = rng.IntN(ranks)
		}
		if i < nroots {
			f.Roots = append(f.Roots, uint32(i))
			continue
		}
		p := i - 1 - rng.IntN(min(window, i))
		f.Children[p] = append(f.Children[p], uint32(i))
	}
	return f
}

// Len is the number of tasks.
func (f *Forest) Len() int { return len(f.Target) }

// Start is the ranks' starting tasks: the roots, assigned at random.
func (f *Forest) Start(ranks int, seed uint64) [][][]byte {
	var roots [][]byte
	for _, r := range f.Roots {
		roots = append(roots, binary.LittleEndian.AppendUint32(nil, r))
	}
	return pool.AssignRandom(roots, ranks, seed)
}

// Func runs the forest's tasks, calling ran with each task's node first
// (an error from it, as "run twice", ends the rank's Run) and made with
// the number of children it makes after.
func (f *Forest) Func(ran func(id uint32) error, made func(children int)) pool.Func {
	return func(task []byte, out *pool.Out) error {
		if len(task) != 4 {
			return fmt.Errorf("pooltest: a task of %d bytes", len(task))
		}
		id := binary.LittleEndian.Uint32(task)
		if int(id) >= len(f.Target) {
			return fmt.Errorf("pooltest: task %d of %d", id, len(f.Target))
		}
		if err := ran(id); err != nil {
			return err
		}
		// A little work of a size varying by task, so ranks fall out of step.
		h := uint64(id)
		for k := 0; k < int(id%7)*200; k++ {
			h = h*0x9e3779b97f4a7c15 + 1
		}
		sink.Add(h) // kept, so that the loop is not optimized away
		for _, ch := range f.Children[id] {
			b := binary.LittleEndian.AppendUint32(nil, ch)
			if to := f.Target[ch]; to >= 0 {
				out.Send(to, b)
			} else {
				out.Spawn(b)
			}
		}
		made(len(f.Children[id]))
		return nil
	}
}

var sink atomic.Uint64
