package distributed

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// Partition is the static partition of n triangles over ranks shares:
// bounds[r] is rank r's first triangle, bounds[ranks] = n; the first
// n%ranks shares have one triangle more.
func Partition(n, ranks int) []int {
	if n < 0 || ranks < 1 {
		panic(fmt.Sprintf("distributed: Partition(%d, %d): want n ≥ 0 and ranks ≥ 1", n, ranks))
	}
	b := make([]int, ranks+1)
	for r := 1; r <= ranks; r++ {
		b[r] = b[r-1] + n/ranks
		if r-1 < n%ranks {
			b[r]++
		}
	}
	return b
}

// Globalize makes a share's visibility words global in place: the share's
// primitive ids count from 0, the mesh's from first.
func Globalize(words []uint64, first uint32) {
	for i, v := range words {
		if uint32(v) != raster.NoPrimitive {
			words[i] = v + uint64(first)
		}
	}
}

// CompositeStats are one composite's traffic, per rank.
type CompositeStats struct {
	Block int // words a rank composites: ⌈pixels / ranks⌉
	// SentBytes is what each rank hands MPI: its whole padded image to the
	// reduce-scatter (a reduce-scatter moves (N−1)/N of it over the wire
	// with recursive halving or a ring) and its block to the gather.
	SentBytes int64
}

// Composite joins every rank's global visibility words (one a pixel,
// Globalize'd) into root's dst by elementwise minimum: a reduce-scatter
// with MIN, so that each rank composites one block of ⌈pixels/ranks⌉
// words, then a gather of the blocks at root. dst (len(words) long) is
// written at root only and may be nil elsewhere.
func Composite(c Comm, dst, words []uint64, root int) (CompositeStats, error) {
	return composite(c, dst, words, root)
}

// CompositeAll is Composite with the blocks allgathered instead of
// gathered: every rank's dst receives the composited words, for
// ResolveShare. SentBytes counts the allgather's block like the gather's.
func CompositeAll(c Comm, dst, words []uint64) (CompositeStats, error) {
	if len(dst) != len(words) {
		panic(fmt.Sprintf("distributed: CompositeAll: dst of %d words for %d", len(dst), len(words)))
	}
	return composite(c, dst, words, -1)
}

// composite gathers the blocks at root, or at every rank when root < 0.
func composite(c Comm, dst, words []uint64, root int) (CompositeStats, error) {
	n, size := len(words), c.Size()
	block := (n + size - 1) / size
	st := CompositeStats{Block: block, SentBytes: int64(8 * (block*size + block))}
	send := words
	if block*size != n {
		// The last block is padded with the minimum's identity.
		send = make([]uint64, block*size)
		copy(send, words)
		for i := n; i < len(send); i++ {
			send[i] = rasterizer.EmptyVisibility
		}
	}
	mine := make([]uint64, block)
	if err := c.ReduceScatterMin(send, mine); err != nil {
		return st, err
	}
	var all []uint64
	if c.Rank() == root || root < 0 {
		if len(dst) != n {
			panic(fmt.Sprintf("distributed: Composite: dst of %d words for %d", len(dst), n))
		}
		all = dst
		if block*size != n {
			all = make([]uint64, block*size)
		}
	}
	if root < 0 {
		if err := c.AllgatherUint64(mine, all); err != nil {
			return st, err
		}
	} else if err := c.Gather(mine, all, root); err != nil {
		return st, err
	}
	if (c.Rank() == root || root < 0) && block*size != n {
		copy(dst, all[:n])
	}
	return st, nil
}
