package distributed

import (
	"fmt"
	"slices"
	"time"

	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// SceneOptions are how a Scene splits, balances and composites.
type SceneOptions struct {
	// Policy balances the shares between frames (Static, CostEffective)
	// or within each frame (LeftRightHandoff).
	Policy Policy
	// Slabs is the number of pieces a rank renders at the first, equal
	// partition: the unit of rendering, of the checkpoint and of the
	// handoffs. 0 means 8.
	Slabs int
	// Checkpoint is the Left-Right Handoff's checkpoint (Handoff); 0 means
	// 0.5.
	Checkpoint float64
	// ResolveAtRanks shades the image where its triangles are: the
	// composited words are allgathered, each rank shades the pixels its
	// own pieces won (ResolveShare) and a bitwise OR joins them at rank 0,
	// so that no rank needs another's triangles. Otherwise the words are
	// gathered at rank 0, which resolves them from the whole mesh.
	ResolveAtRanks bool
	// Label names the scene in the ranks' phases and errors, as in
	// "rendering the <Label> at (0,0)"; empty means the source's split.
	Label string
	// Inject, when set, sees each piece's render error and returns the
	// one to keep: a fault-injection hook for tests.
	Inject func(error) error
}

// Scene is one rank's side of sort-last rendering of one Source across
// the ranks of a Comm, frame after frame: the rank's share of the units
// in pieces kept on its GPU, balanced by the options' policy,
// composited into the image one renderer of the whole mesh draws, bit for
// bit. Every rank makes its Scene and calls Frame in the same order.
type Scene struct {
	comm  Comm
	r     *rasterizer.Renderer
	src   *Source
	o     SceneOptions
	slab  int
	cache *pieceCache
	bal   *Balancer
	lrh   *Handoff
	round int

	bounds     []int // every rank's first unit, and the units' count
	lo, hi     int   // this rank's share
	composited []uint64
	acc        []uint64
	shaded     []uint32 // ResolveAtRanks: this rank's pixels
	pixels     []uint32 // ResolveAtRanks, rank 0: every rank's, joined
}

// FrameStats is one frame across the ranks, the same at every rank.
type FrameStats struct {
	// Rank is each rank's wall time, in seconds, for its share: the
	// upload of pieces new to it, its renders, read-backs and minima, and
	// under LeftRightHandoff its signals, its wait for its partner's reply
	// and the pieces handed to it.
	Rank []float64
	// Composite is the slowest rank's compositing time, in seconds (with
	// ResolveAtRanks: its resolve and the OR reduction too).
	Composite float64
	// Handoffs counts the moves of this frame (LeftRightHandoff: replies
	// that moved pieces; the other policies: boundaries moved after it),
	// Units the units they moved.
	Handoffs, Units int
}

// NewScene uploads this rank's share of src (the static partition, in
// pieces) to r's context and measures the move cost, the slowest rank's
// upload time per unit, that the balancing weighs. Every rank calls it.
func NewScene(comm Comm, r *rasterizer.Renderer, src *Source, o SceneOptions) (*Scene, error) {
	if o.Slabs <= 0 {
		o.Slabs = 8
	}
	if o.Label == "" {
		o.Label = src.Split
	}
	rank, size := comm.Rank(), comm.Size()
	s := &Scene{comm: comm, r: r, src: src, o: o, bounds: Partition(src.Units, size),
		slab:  max(1, (src.Units+size*o.Slabs-1)/(size*o.Slabs)),
		cache: &pieceCache{src: src, m: map[[2]int]*mesh.GPU{}, used: map[[2]int]bool{}},
	}
	s.lo, s.hi = s.bounds[rank], s.bounds[rank+1]
	// The first distribution, untimed; its cost per unit is the move cost.
	start := time.Now()
	var err error
	for _, p := range Pieces(s.lo, s.hi, s.slab) {
		if _, err = s.cache.get(p[0], p[1]); err != nil {
			break
		}
	}
	secs := time.Since(start).Seconds()
	if err := Agree(comm, "uploading the "+src.Split, err); err != nil {
		s.Delete()
		return nil, err
	}
	all := make([]float64, size)
	SetPhase(comm, "gathering the move costs")
	if err := comm.AllgatherFloat64([]float64{secs / float64(max(1, s.hi-s.lo))}, all); err != nil {
		s.Delete()
		return nil, err
	}
	moveCost := slices.Max(all)
	s.bal = &Balancer{Policy: o.Policy, MoveCost: moveCost}
	s.lrh = &Handoff{Comm: comm, Checkpoint: o.Checkpoint, MoveCost: moveCost, Slab: s.slab}
	w, h := r.Options().Width, r.Options().Height
	s.composited, s.acc = make([]uint64, w*h), make([]uint64, w*h)
	if o.ResolveAtRanks {
		s.shaded, s.pixels = make([]uint32, w*h), make([]uint32, w*h)
	}
	return s, nil
}

// Frame renders this rank's share at cam, composites the ranks' shares
// and moves the boundaries for the next frame as the policy decides.
// name names the view in the phases and errors. After it, Visibility
// holds the composited words at rank 0 (at every rank with
// ResolveAtRanks), and Pixels the joined image at rank 0 with
// ResolveAtRanks. A rank's failure is every rank's error.
func (s *Scene) Frame(cam view.Camera, name string) (FrameStats, error) {
	rankTime, gave, err := s.renderShare(cam, name)
	if err != nil {
		return FrameStats{}, err
	}
	compTime, err := s.composite(cam)
	if err != nil {
		return FrameStats{}, err
	}
	st, err := s.gatherStats(rankTime, compTime, gave)
	if err != nil {
		return st, err
	}
	if s.o.Policy != LeftRightHandoff {
		rank, size := s.comm.Rank(), s.comm.Size()
		next, moved := s.bal.Next(s.bounds, st.Rank)
		st.Handoffs += moved
		for k := 1; k < size; k++ {
			st.Units += max(next[k]-s.bounds[k], s.bounds[k]-next[k])
		}
		s.bounds = next
		s.lo, s.hi = s.bounds[rank], s.bounds[rank+1]
	}
	return st, nil
}

// renderShare renders this rank's pieces into its minimum of their
// global words (under LeftRightHandoff, playing its side of the
// protocol) and agrees on failures; it returns the rank's time and the
// units it handed its partner.
func (s *Scene) renderShare(cam view.Camera, name string) (secs float64, gave int, err error) {
	for i := range s.acc {
		s.acc[i] = rasterizer.EmptyVisibility
	}
	// A failed piece is remembered, not returned, so that the handoff
	// protocol still sends its one message and the ranks learn of the
	// failure together at the agreement below.
	var renderErr error
	piece := func(a, b int) error {
		if renderErr != nil {
			return nil
		}
		g, err := s.cache.get(a, b)
		if err == nil {
			_, err = s.r.Render(g, cam)
		}
		if s.o.Inject != nil {
			err = s.o.Inject(err)
		}
		if err != nil {
			renderErr = err
			return nil
		}
		words := s.r.Visibility()
		Globalize(words, s.src.First(a))
		for i, x := range words {
			s.acc[i] = min(s.acc[i], x)
		}
		return nil
	}
	start := time.Now()
	if s.o.Policy == LeftRightHandoff {
		SetPhase(s.comm, "the handoffs")
		var hs HandoffStats
		s.lo, s.hi, hs, err = s.lrh.Frame(s.round, s.lo, s.hi, piece)
		s.round++
		if err != nil {
			return 0, 0, err
		}
		gave = max(hs.Gave, 0)
	} else {
		for _, p := range Pieces(s.lo, s.hi, s.slab) {
			piece(p[0], p[1])
		}
	}
	secs = time.Since(start).Seconds()
	s.cache.sweep()
	return secs, gave, Agree(s.comm, fmt.Sprintf("rendering the %s at %s", s.o.Label, name), renderErr)
}

// gatherStats shares every rank's times and handoffs.
func (s *Scene) gatherStats(rankTime, compTime float64, gave int) (FrameStats, error) {
	var st FrameStats
	size := s.comm.Size()
	times := make([]float64, 3*size)
	SetPhase(s.comm, "gathering the times")
	if err := s.comm.AllgatherFloat64([]float64{rankTime, compTime, float64(gave)}, times); err != nil {
		return st, err
	}
	st.Rank = make([]float64, size)
	for k := range st.Rank {
		st.Rank[k], st.Composite = times[3*k], max(st.Composite, times[3*k+1])
		if g := times[3*k+2]; g > 0 {
			st.Handoffs++
			st.Units += int(g)
		}
	}
	return st, nil
}

// composite joins the ranks' words (and with ResolveAtRanks their
// pixels); it returns this rank's time for it.
func (s *Scene) composite(cam view.Camera) (float64, error) {
	SetPhase(s.comm, "compositing")
	start := time.Now()
	if !s.o.ResolveAtRanks {
		var dst []uint64
		if s.comm.Rank() == 0 {
			dst = s.composited
		}
		_, err := Composite(s.comm, dst, s.acc, 0)
		return time.Since(start).Seconds(), err
	}
	// Every rank gets the composited words and shades the pixels its own
	// pieces won (those it rendered this frame: the cache holds no other
	// after the sweep); an OR at rank 0 joins them.
	if _, err := CompositeAll(s.comm, s.composited, s.acc); err != nil {
		return 0, err
	}
	var mine []Piece
	for k, g := range s.cache.m {
		mine = append(mine, Piece{Mesh: g, First: s.src.First(k[0])})
	}
	err := ResolveShare(s.r, cam, s.composited, mine, s.comm.Rank() == 0, s.shaded)
	if err := Agree(s.comm, "resolving at every rank", err); err != nil {
		return 0, err
	}
	SetPhase(s.comm, "joining the pixels")
	var dst []uint32
	if s.comm.Rank() == 0 {
		dst = s.pixels
	}
	err = s.comm.ReduceOr(s.shaded, dst, 0)
	return time.Since(start).Seconds(), err
}

// Visibility is the last frame's composited visibility words: at rank 0,
// and with ResolveAtRanks at every rank. The slice is reused by the next
// frame.
func (s *Scene) Visibility() []uint64 { return s.composited }

// Pixels is the last frame's image joined from the ranks' resolves (RGBA8
// words, as rasterizer.Renderer.Pixels) at rank 0 with ResolveAtRanks;
// nil otherwise.
func (s *Scene) Pixels() []uint32 {
	if !s.o.ResolveAtRanks || s.comm.Rank() != 0 {
		return nil
	}
	return s.pixels
}

// Bounds is every rank's first unit for the next frame, and the units'
// count (the shares Static and CostEffective left; under
// LeftRightHandoff each rank knows only its own, Share).
func (s *Scene) Bounds() []int { return s.bounds }

// Share is this rank's units for the next frame, [lo, hi).
func (s *Scene) Share() (lo, hi int) { return s.lo, s.hi }

// Delete frees the pieces on the rank's GPU.
func (s *Scene) Delete() {
	clear(s.cache.used)
	s.cache.sweep()
}

// Compare renders whole (the whole mesh, global ids) at cam with r, one
// process's frame, and counts the pixels whose composited word or shaded
// pixel differs from it. With pixels nil it resolves composited itself
// (leaving r's image the composite's); otherwise it compares those
// pixels, the ranks' resolves joined.
func Compare(r *rasterizer.Renderer, whole *mesh.GPU, cam view.Camera, composited []uint64, pixels []uint32) (int, error) {
	if _, err := r.Render(whole, cam); err != nil {
		return 0, fmt.Errorf("the single-process frame: %w", err)
	}
	want, wantPix := r.Visibility(), r.Pixels()
	if pixels == nil {
		if err := r.Resolve(whole, cam, composited); err != nil {
			return 0, err
		}
		pixels = r.Pixels()
	}
	n := 0
	for p, px := range pixels {
		if px != wantPix[p] || composited[p] != want[p] {
			n++
		}
	}
	return n, nil
}

// pieceCache keeps a rank's pieces on its GPU from frame to frame; a
// piece not used in a frame is dropped after it.
type pieceCache struct {
	src  *Source
	m    map[[2]int]*mesh.GPU
	used map[[2]int]bool
}

func (pc *pieceCache) get(a, b int) (*mesh.GPU, error) {
	k := [2]int{a, b}
	pc.used[k] = true
	if g := pc.m[k]; g != nil {
		return g, nil
	}
	g, err := pc.src.Upload(a, b)
	if err != nil {
		return nil, err
	}
	pc.m[k] = g
	return g, nil
}

// sweep drops the pieces the last frame did not use.
func (pc *pieceCache) sweep() {
	for k, g := range pc.m {
		if !pc.used[k] {
			g.Delete()
			delete(pc.m, k)
		}
	}
	clear(pc.used)
}
