package scan

import (
	"github.com/dpgl/dpgl/gpu"
)

// scanJob is one device-wide scan, described by what its last (level-0)
// kernel reads and writes; the public functions fill one in.
type scanJob struct {
	fn        string
	typ       int // TYPE of the scanned values
	op        Op
	seg       bool // values are (head, value) pairs; flags holds the heads
	out       int  // scan.comp's OUT (modes.go)
	words     int  // record words (out != outValues)
	n         int
	src       gpu.Storage // values (outValues) or records (the other outs)
	flags     gpu.Storage // head flags (seg), keep flags (the other outs), or keys (keyWords > 0)
	dst       gpu.Storage
	dstLen    int
	init      uint32 // bits of the prefix of element 0
	inclusive bool
	reset     bool        // exclusive values restart at heads
	total     gpu.Storage // where the op of all n elements goes (nil: nowhere)
	totalAt   int
	floatAdd  bool // float Add: rounding must not depend on timing

	// keyWords > 0: the flags are the heads of the runs of equal keys of
	// that many words in flags, computed as the tiles load them.
	keyWords int
	// outPartition: the selected count, at count[countAt].
	count   gpu.Storage
	countAt int
	// lanes: reduce-then-scan's level 0 carries one total per invocation
	// instead of per tile (LANE_CARRY; Scanner.laneCarry decides).
	lanes bool
	// levelTotal: reduce-then-scan writes the op of all n elements to
	// levelTotal[levelTotalAt] at its top level, before level 0 runs (so
	// that a partition's level 0 reads the count it needs there, without
	// a pass of its own to count). Only with more than one tile.
	levelTotal   gpu.Storage
	levelTotalAt int
	// mapPredicate: the elements, of TYPE predType, are counted where the
	// GLSL expression pred, or the user's kernel, holds.
	predType int
	pred     string
	user     *Predicate
}

// maxLevels bounds the levels of reduce-then-scan: tiles hold at least 32
// elements and lengths stay below 2^31.
const maxLevels = 8

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// pathFor decides how j crosses tiles.
func (s *Scanner) pathFor(j *scanJob) Path {
	if j.floatAdd {
		return PathReduceThenScan
	}
	switch s.opt.Path {
	case PathReduceThenScan, PathLookBack:
		return s.opt.Path
	}
	if j.n <= s.tile {
		// One tile: one dispatch either way, without the ticket.
		return PathReduceThenScan
	}
	if s.tune.reduceThenScan && (j.seg || !s.subgroups) {
		// On a CPU driver a look-back tile waits for predecessors whose
		// threads may be descheduled, longest for segmented scans; with
		// the shared-memory code's small default tiles plain scans lose
		// too (tuning.go).
		return PathReduceThenScan
	}
	return PathLookBack
}

// laneCarry says whether reduce-then-scan's level 0 of j carries one total
// per invocation (LANE_CARRY in scankernel.glsl): unsegmented scans,
// compactions and partitions of more than one tile in the shared-memory
// layout, whose invocations hold consecutive elements. Their level 0 then needs no group
// scan and no barrier, and walks its vectors one at a time instead of
// holding the tile in registers; the level above is 4*Vectors times
// smaller than the input instead of a tile's size times: on llvmpipe it
// made select-if, partition and unique 1.3-1.6x faster (TUNING.md).
func (s *Scanner) laneCarry(j *scanJob) bool {
	return (j.out == outValues || j.out == outCompact || j.out == outPartition) && !j.seg && !s.subgroups &&
		j.n > s.tile && s.pathFor(j) == PathReduceThenScan
}

// run issues j's dispatches on the GL thread and ends with a storage
// barrier.
func (s *Scanner) run(j *scanJob) {
	if j.n == 0 && j.total == nil {
		return
	}
	s.c.Do(func() {
		var plan Plan
		j.lanes = s.laneCarry(j)
		if s.pathFor(j) == PathLookBack {
			plan = s.runLookBack(j)
		} else {
			plan = s.runLevels(j)
		}
		s.c.Barrier(gpu.BarrierStorage)
		s.setPlan(plan)
	})
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// level0 binds j's arrays and uniforms to p, the level-0 scan kernel.
func (s *Scanner) level0(p *gpu.Program, j *scanJob) {
	c := s.c
	if j.out == outValues {
		c.BindStorage(0, j.src)
		c.BindStorage(1, j.src)
		if j.seg {
			c.BindStorage(2, j.flags)
			c.BindStorage(3, j.flags)
		}
		c.BindStorage(4, j.dst)
		c.BindStorage(5, j.dst)
	} else {
		if j.loadMap() == mapPredicate || j.lanes && j.words == 1 {
			c.BindStorage(0, j.src)
		}
		if j.loadMap() != mapPredicate {
			c.BindStorage(2, j.flags)
			c.BindStorage(3, j.flags)
		}
		c.BindStorage(1, j.src)
		c.BindStorage(4, j.dst)
		c.BindStorage(5, j.dst)
	}
	if j.out == outPartition {
		c.BindStorage(7, j.count)
		p.SetUint("countAt", uint32(j.countAt))
	}
	if j.total != nil {
		c.BindStorage(7, j.total)
		p.SetUint("totalAt", uint32(j.totalAt))
	}
	p.SetUint("n", uint32(j.n))
	p.SetUint("numTiles", uint32(max(1, ceilDiv(j.n, s.tile))))
	p.SetUint("initBits", j.init)
	p.SetUint("inclusive", b2u(j.inclusive))
	p.SetUint("resetAtHeads", b2u(j.reset))
	p.SetUint("dstLen", uint32(j.dstLen))
	j.bindUser(p)
}

// bindUser lets a user's predicate kernel set its uniforms and buffers.
func (j *scanJob) bindUser(p *gpu.Program) {
	if j.user != nil && j.user.Bind != nil {
		j.user.Bind(p)
	}
}

func (j *scanJob) key(carry int, sub bool) progKey {
	k := progKey{file: "scan/scan.comp", typ: j.typ, op: j.op, seg: j.seg, carry: carry,
		out: j.out, total: j.total != nil, words: max(j.words, 1), sub: sub, spin: -1,
		mapMode: j.loadMap(), keyWords: j.keyWords}
	if j.lanes && carry == 1 {
		k.lanes, k.sub = true, false
	}
	j.predKey(&k)
	return k
}

// reduceKey is the key of reduce.comp reading level 0 of j.
func (j *scanJob) reduceKey() progKey {
	k := progKey{file: "scan/reduce.comp", typ: j.typ, op: j.op, seg: j.seg, mapMode: j.loadMap(), keyWords: j.keyWords, sub: true}
	if j.lanes {
		k.lanes, k.sub = true, false
	}
	j.predKey(&k)
	return k
}

func (j *scanJob) predKey(k *progKey) {
	if k.mapMode == mapPredicate {
		k.predType, k.pred, k.user = j.predType, j.pred, j.user
	}
}

// runLookBack scans in one dispatch.
func (s *Scanner) runLookBack(j *scanJob) Plan {
	c := s.c
	tiles := max(1, ceilDiv(j.n, s.tile))
	old := s.state
	st := s.grow(j.fn, &s.state, 4+4*tiles)
	if st != old {
		s.ticket = 0 // a new buffer starts with the counter at zero
	}
	s.epoch++
	if s.epoch >= maxEpoch {
		// Tags would repeat: clear the states (and the ticket) instead;
		// Fill waits for the shaders that wrote them.
		st.Fill(0)
		s.epoch, s.ticket = 1, 0
	}
	key := j.key(2, true)
	key.spin, key.nopub = s.spin, s.nopub
	p, k := s.program(key)
	s.level0(p, j)
	c.BindStorage(6, st)
	p.SetUint("epoch", s.epoch)
	p.SetUint("ticketBase", s.ticket)
	gx, gy := c.Grid(tiles)
	p.Dispatch(gx, gy, 1)
	// Every group takes a ticket, also those of the grid's last row that
	// have no tile.
	s.ticket += uint32(gx * gy)
	return Plan{Path: PathLookBack, Subgroups: k.sub, Levels: 1, Dispatches: 1}
}

// runLevels scans by reduce-then-scan.
func (s *Scanner) runLevels(j *scanJob) Plan {
	c := s.c
	var sizes [maxLevels]int
	sizes[0] = j.n
	L := 0
	if j.lanes {
		// One total per invocation and the identity after them, whose
		// exclusive scan is the total of all.
		sizes[1] = ceilDiv(j.n, 4*s.opt.Vectors) + 1
		L = 1
	}
	for sizes[L] > s.tile {
		sizes[L+1] = ceilDiv(sizes[L], s.tile)
		L++
	}
	for len(s.levels) <= L {
		s.levels = append(s.levels, nil)
		s.levelHeads = append(s.levelHeads, nil)
	}
	lvl := func(k int) gpu.Range[uint32] { return s.grow(j.fn, &s.levels[k], sizes[k]).Slice(0, sizes[k]) }
	heads := func(k int) gpu.Range[uint32] {
		return s.grow(j.fn, &s.levelHeads[k], sizes[k]).Slice(0, sizes[k])
	}
	plan := Plan{Path: PathReduceThenScan, Levels: L + 1}

	// Down: reduce each level's tiles into the next level.
	for k := 0; k < L; k++ {
		rk := progKey{file: "scan/reduce.comp", typ: j.typ, op: j.op, seg: j.seg, sub: true}
		if k == 0 {
			rk = j.reduceKey() // level 0 reads the job's input as its MAP says
		}
		p, key := s.program(rk)
		plan.Subgroups = key.sub
		if k == 0 {
			if m := j.loadMap(); m == mapValues || m == mapPredicate {
				c.BindStorage(0, j.src)
				c.BindStorage(1, j.src)
			}
			if j.seg || j.out != outValues && j.loadMap() != mapPredicate {
				c.BindStorage(2, j.flags)
				c.BindStorage(3, j.flags)
			}
			j.bindUser(p)
		} else {
			c.BindStorage(0, lvl(k))
			c.BindStorage(1, lvl(k))
			if j.seg {
				c.BindStorage(2, heads(k))
				c.BindStorage(3, heads(k))
			}
		}
		c.BindStorage(6, lvl(k+1))
		if j.seg {
			c.BindStorage(7, heads(k+1))
		}
		tiles := sizes[k+1]
		if k == 0 && j.lanes {
			tiles = ceilDiv(j.n, s.tile)
		}
		p.SetUint("n", uint32(sizes[k]))
		p.SetUint("numTiles", uint32(tiles))
		p.SetUint("partialAt", 0)
		p.Dispatch1D(tiles)
		c.Barrier(gpu.BarrierStorage) // the next level reads the partials
		plan.Dispatches++
	}
	// Up: scan the tile totals in place, from the top level (one tile, with
	// the init value) down; each level's tiles start from the scanned total
	// above them.
	for k := L; k >= 1; k-- {
		carry := 1
		if k == L {
			carry = 0
		}
		up := scanJob{typ: j.typ, op: j.op, seg: j.seg}
		if k == L && j.levelTotal != nil {
			up.total = j.levelTotal
		}
		p, _ := s.program(up.key(carry, true))
		c.BindStorage(0, lvl(k))
		c.BindStorage(1, lvl(k))
		if j.seg {
			c.BindStorage(2, heads(k))
			c.BindStorage(3, heads(k))
		}
		c.BindStorage(4, lvl(k))
		c.BindStorage(5, lvl(k))
		if carry == 1 {
			c.BindStorage(6, lvl(k+1))
		}
		if up.total != nil {
			c.BindStorage(7, up.total)
			p.SetUint("totalAt", uint32(j.levelTotalAt))
		}
		p.SetUint("n", uint32(sizes[k]))
		p.SetUint("numTiles", uint32(ceilDiv(sizes[k], s.tile)))
		p.SetUint("initBits", j.init)
		p.SetUint("inclusive", 0)
		p.SetUint("resetAtHeads", 0)
		p.Dispatch1D(ceilDiv(sizes[k], s.tile))
		c.Barrier(gpu.BarrierStorage) // the level below reads these carries
		plan.Dispatches++
	}
	carry := 0
	if L > 0 {
		carry = 1
	}
	p, key := s.program(j.key(carry, true))
	plan.Subgroups = key.sub
	s.level0(p, j)
	if carry == 1 {
		c.BindStorage(6, lvl(1))
	}
	p.Dispatch1D(max(1, ceilDiv(j.n, s.tile)))
	plan.Dispatches++
	return plan
}

// reduceTo writes the op of n elements of the input to dst[at] (bits):
// level 0 reads src (values, or flags through MAP m), each further level
// the tile totals of the one before.
func (s *Scanner) reduceTo(fn string, typ int, op Op, m int, src gpu.Storage, n int, dst gpu.Storage, at int) {
	s.reduceLevels(fn, progKey{file: "scan/reduce.comp", typ: typ, op: op, mapMode: m, sub: true}, nil, src, n, dst, at)
}

// countPredicate writes the number of elements of j's src for which j's
// predicate holds to dst[at].
func (s *Scanner) countPredicate(j *scanJob, dst gpu.Storage, at int) {
	s.reduceLevels(j.fn, j.reduceKey(), j, j.src, j.n, dst, at)
}

// reduceLevels is reduceTo with level 0 built from key (and bound to j's
// user kernel, if any).
func (s *Scanner) reduceLevels(fn string, key progKey, j *scanJob, src gpu.Storage, n int, dst gpu.Storage, at int) {
	c := s.c
	c.Do(func() {
		plan := Plan{Path: PathReduceThenScan}
		count := n
		for k := 0; ; k++ {
			tiles := max(1, ceilDiv(count, s.tile))
			p, built := s.program(key)
			plan.Subgroups = built.sub
			if key.mapMode == mapValues || key.mapMode == mapPredicate {
				c.BindStorage(0, src)
				c.BindStorage(1, src)
			} else {
				c.BindStorage(2, src)
				c.BindStorage(3, src)
			}
			if k == 0 && j != nil {
				j.bindUser(p)
			}
			out, outAt := dst, at
			if tiles > 1 {
				for len(s.levels) <= k+1 {
					s.levels = append(s.levels, nil)
					s.levelHeads = append(s.levelHeads, nil)
				}
				out, outAt = s.grow(fn, &s.levels[k+1], tiles).Slice(0, tiles), 0
			}
			c.BindStorage(6, out)
			p.SetUint("n", uint32(count))
			p.SetUint("numTiles", uint32(tiles))
			p.SetUint("partialAt", uint32(outAt))
			p.Dispatch1D(tiles)
			c.Barrier(gpu.BarrierStorage)
			plan.Dispatches++
			plan.Levels++
			if tiles == 1 {
				break
			}
			// The levels above sum the tiles' counts (or reduce their totals).
			src, count = out, tiles
			key = progKey{file: "scan/reduce.comp", typ: key.typ, op: key.op, mapMode: mapValues, sub: true}
		}
		s.setPlan(plan)
	})
}
