package scan

import (
	"fmt"
	"strconv"

	"github.com/dpgl/dpgl/gpu"
)

// ThreeWayPartitionIf splits src three ways by two GLSL predicates over x
// and i (as SelectIf's): the src[i] for which pred1 holds go to the front
// of first, those for which pred1 does not hold but pred2 does to the
// front of second, and the rest to the front of unselected, each part in
// src's order (CUB's DevicePartition::If with two selection operators,
// except that its unselected part comes out reversed). It returns the
// sizes of the first two parts; the third has the rest of src.Len().
// Elements past an output's Len() are dropped from it (the counts still
// include them). The outputs may not overlap each other or src. A pass
// evaluates both predicates once per element and flags its part
// (shaders/scan/threeway.comp), so that each element lands in exactly one
// part whatever the driver makes of NaN comparisons; then a compaction a
// part. Scratch: three words per element. It waits for the GPU.
func ThreeWayPartitionIf[T Elem](s *Scanner, first, second, unselected, src gpu.Array[T], pred1, pred2 string) (n1, n2 int, err error) {
	const fn = "ThreeWayPartitionIf"
	s.live(fn)
	c := s.c
	c.Do(func() {
		res := s.grow(fn, &s.result, 4)
		if err = threeWay(s, fn, first, second, unselected, src, pred1, pred2, res, 0); err == nil {
			n1, n2 = int(res.Get(0)), int(res.Get(1))
		}
	})
	return n1, n2, err
}

// ThreeWayPartitionIfTo is ThreeWayPartitionIf leaving the sizes of the
// first two parts in counts[at] and counts[at+1] instead of returning
// them, without a round trip to the host. counts may not overlap the
// other arrays.
func ThreeWayPartitionIfTo[T Elem](s *Scanner, first, second, unselected, src gpu.Array[T], pred1, pred2 string, counts gpu.Array[uint32], at int) error {
	const fn = "ThreeWayPartitionIfTo"
	s.live(fn)
	m := array(s, fn, "counts", counts)
	if at < 0 || at+1 >= m {
		panic(fmt.Sprintf("scan: %s: at %d: counts[at] and counts[at+1] are out of range of counts' %d elements", fn, at, m))
	}
	for _, o := range []struct {
		name string
		a    gpu.Storage
	}{{"first", first}, {"second", second}, {"unselected", unselected}, {"src", src}} {
		disjoint(fn, "counts", counts, o.name, o.a)
	}
	return threeWay(s, fn, first, second, unselected, src, pred1, pred2, counts, at)
}

// threeWay runs the three selections, counting the parts into
// counts[at], counts[at+1] and (the third, which the caller does not
// need) a word of scratch.
func threeWay[T Elem](s *Scanner, fn string, first, second, unselected, src gpu.Array[T], pred1, pred2 string, counts gpu.Storage, at int) error {
	n := array(s, fn, "src", src)
	outs := []struct {
		name string
		a    gpu.Array[T]
	}{{"first", first}, {"second", second}, {"unselected", unselected}}
	for i, o := range outs {
		disjoint(fn, o.name, o.a, "src", src)
		for _, p := range outs[i+1:] {
			disjoint(fn, o.name, o.a, p.name, p.a)
		}
	}
	if err := checkExpr(fn, "first predicate", pred1); err != nil {
		return err
	}
	if err := checkExpr(fn, "second predicate", pred2); err != nil {
		return err
	}
	var err error
	c := s.c
	c.Do(func() {
		var p *gpu.Program
		p, err = s.primProgramErr("scan/threeway.comp", map[string]string{
			"TYPE": strconv.Itoa(typeOf[T]()), "PRED1": pred1, "PRED2": pred2,
		})
		if err != nil {
			err = fmt.Errorf("scan: %s: the predicates %q and %q do not compile: %w", fn, pred1, pred2, err)
			return
		}
		flags := [3]gpu.Range[uint32]{s.scratch(fn, scratchFlags, n), s.scratch(fn, scratchPos, n), s.scratch(fn, scratchEnds, n)}
		if n > 0 {
			c.BindStorage(0, src)
			for k, f := range flags {
				c.BindStorage(1+k, f)
			}
			p.SetUint("n", uint32(n))
			p.DispatchInvocations(n)
			c.Barrier(gpu.BarrierStorage) // the compactions read the flags
		}
		rest := s.grow(fn, &s.result, 4)
		plan := Plan{Dispatches: 1}
		for k, o := range outs {
			j := &scanJob{fn: fn, typ: 0, op: Add, out: outCompact, words: 1, n: n, src: src, flags: flags[k], dst: o.a,
				dstLen: array(s, fn, o.name, o.a), total: counts, totalAt: at + k}
			if k == 2 {
				j.total, j.totalAt = rest, 3
			}
			s.run(j)
			plan.Dispatches += s.LastPlan().Dispatches
			plan.Path, plan.Levels = s.LastPlan().Path, s.LastPlan().Levels
		}
		s.setPlan(plan)
	})
	return err
}
