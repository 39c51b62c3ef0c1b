package scene

import (
	"fmt"
	"image/color"
	"sync"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// Options configure a Scene.
type Options struct {
	Width, Height int
	// Path chooses the renderer's path, and its loops' policy, strategy and
	// lanes.
	Path
	// ScanCost and ZBufferCost are the loops' costIterations (0: the
	// balancer's default, with its warning).
	ScanCost, ZBufferCost float64
	// Flat shades each triangle with its own normal (a cube shows flat
	// faces) instead of the interpolated vertex normals.
	Flat bool
	// Reduction is the factor by which decimation reduces a re-extracted
	// surface to make its unbalanced set (0: dataset.DefaultReduction).
	Reduction int
	// Wake is called from the decimation goroutine when a decimated set is
	// ready for Poll (e.g. glfw.PostEmptyEvent); nil for none.
	Wake func()
	// Logf receives the loops' warnings (nil: log.Printf).
	Logf func(format string, args ...any)
}

// Path is how the renderer draws: the tiled path, or its two loops under
// a policy or a strategy, with Lanes. Every path draws the same image.
type Path struct {
	// Tiled is the renderer's fastest path (rasterizer.Options.Tiled);
	// the rest then waits for a path with loops.
	Tiled bool
	// Policy balances both loops when Strategy is balancer.Paper;
	// another Strategy runs them under balancer.Never.
	Policy   balancer.Policy
	Strategy balancer.Strategy
	Lanes    int
}

// String names the path as the viewer's overlay shows it.
func (p Path) String() string {
	lanes := "all"
	if p.Lanes > 0 {
		lanes = fmt.Sprint(p.Lanes)
	}
	switch {
	case p.Tiled:
		return "tiled (the fastest)"
	case p.Strategy != balancer.Paper:
		return fmt.Sprintf("strategy %v, lanes %s", p.Strategy, lanes)
	}
	return fmt.Sprintf("policy %v, lanes %s", p.Policy, lanes)
}

// Frame describes one rendered frame.
type Frame struct {
	Stats rasterizer.FrameStats
	// Unbalanced reports which set was drawn, Triangles its size.
	Unbalanced bool
	Triangles  int
	Iso        float32
	// Note says what the frame is not: the unbalanced set asked for while
	// its decimation runs.
	Note string
	// Hardware frames show the hardware pipeline's primitive ids;
	// HardwareTime is its GPU time, Agree the fraction of covered pixels
	// whose primitive ids equal the compute renderer's.
	Hardware     bool
	HardwareTime time.Duration
	Agree        float64
	// Path is the renderer's path that drew it.
	Path Path
	// Reused says that nothing the frame depends on changed since the
	// last one (camera, polygon set, surface, path, size): Render showed
	// that frame again without running the renderer.
	Reused bool
}

// frameKey is everything a frame's pixels depend on.
type frameKey struct {
	cam                view.Camera
	asked, unbalanced  bool // the set asked for, the set drawn
	hw                 bool
	mesh               *mesh.GPU
	gen, unbalancedGen int64
	path               Path
	w, h               int
}

// Scene is a dataset on the GPU with its renderer and display image.
type Scene struct {
	c    *gpu.Context
	sc   *scan.Scanner
	r    *rasterizer.Renderer
	opts Options
	pair *dataset.Pair

	sets [2]*mesh.GPU // balanced, unbalanced
	iso  float32
	// gen counts the balanced sets (0: the pair's); unbalancedGen is the
	// one the unbalanced set was decimated from (-1: none yet).
	gen, unbalancedGen int64
	wantUnbalanced     bool

	ext *isosurface.Extractor // made on the first new isovalue
	vol *volume.GPU

	hw    *rasterizer.HardwareRenderer // made when first asked for
	tex   *gpu.Texture
	fb    *gpu.Framebuffer
	idPix []byte

	dec decimation

	last    Frame
	lastKey frameKey
	haveKey bool // last and lastKey hold a frame the texture shows
}

// decimation is the background job that makes an unbalanced set.
type decimation struct {
	mu      sync.Mutex
	running bool
	gen     int64      // of the running or finished job
	result  *mesh.Mesh // set when finished
	wg      sync.WaitGroup
}

// New puts the pair's two sets on the GPU and makes a renderer for
// o.Width × o.Height images.
func New(c *gpu.Context, pair *dataset.Pair, o Options) (s *Scene, err error) {
	if pair == nil || pair.Balanced == nil {
		panic("scene: New: pair or its balanced set is nil")
	}
	if o.Reduction == 0 {
		o.Reduction = dataset.DefaultReduction
	}
	if o.Reduction < 1 {
		panic(fmt.Sprintf("scene: New: Reduction %d", o.Reduction))
	}
	// The scene being built is freed on failure: not through s, which a
	// "return nil, err" has set to nil before deferred calls run.
	built := &Scene{c: c, opts: o, pair: pair, iso: pair.Iso}
	defer func() {
		if err != nil {
			built.Delete()
		}
	}()
	s = built
	if s.sc, err = scan.New(c); err != nil {
		return nil, err
	}
	if s.sets[0], err = s.upload(pair.Balanced); err != nil {
		return nil, err
	}
	s.unbalancedGen = -1
	if pair.Unbalanced != nil {
		if s.sets[1], err = s.upload(pair.Unbalanced); err != nil {
			return nil, err
		}
		s.unbalancedGen = 0
	}
	if s.r, err = rasterizer.New(s.sc, s.rendererOptions()); err != nil {
		return nil, err
	}
	if err = s.display(); err != nil {
		return nil, err
	}
	return s, nil
}

// upload is mesh.Upload, also for an empty mesh.
func (s *Scene) upload(m *mesh.Mesh) (*mesh.GPU, error) {
	if m.Len() == 0 {
		return mesh.NewGPU(s.c, 0)
	}
	return mesh.Upload(s.c, m)
}

func (s *Scene) rendererOptions() rasterizer.Options {
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = s.opts.Width, s.opts.Height
	p := s.opts.Path
	policy := p.Policy
	if p.Strategy != balancer.Paper {
		policy = balancer.Never // a strategy balances by itself
	}
	o.Tiled = p.Tiled
	o.ScanConversion = balancer.Config{Policy: policy, Strategy: p.Strategy, Lanes: p.Lanes, CostIterations: s.opts.ScanCost, Logf: s.opts.Logf}
	o.ZBuffer = balancer.Config{Policy: policy, Strategy: p.Strategy, Lanes: p.Lanes, CostIterations: s.opts.ZBufferCost, Logf: s.opts.Logf}
	if s.opts.Flat {
		o.Material.Shading = rasterizer.Flat
	}
	return o
}

// display (re)makes the display texture and its framebuffer at the image
// size.
func (s *Scene) display() error {
	s.haveKey = false // a new texture shows no frame yet
	s.fb.Delete()
	s.tex.Delete()
	s.fb, s.tex = nil, nil
	var err error
	if s.tex, err = gpu.NewTexture(s.c, s.opts.Width, s.opts.Height, gpu.RGBA8); err != nil {
		return err
	}
	if s.fb, err = gpu.NewFramebuffer(s.c, nil, s.tex); err != nil {
		return err
	}
	return nil
}

// Delete waits for a running decimation and frees every GPU object of the
// scene.
func (s *Scene) Delete() {
	s.dec.wg.Wait()
	if s.r != nil {
		s.r.Delete()
	}
	if s.hw != nil {
		s.hw.Delete()
	}
	for _, m := range s.sets {
		if m != nil {
			m.Delete()
		}
	}
	if s.ext != nil {
		s.ext.Delete()
	}
	if s.vol != nil {
		s.vol.Delete()
	}
	s.fb.Delete()
	s.tex.Delete()
	if s.sc != nil {
		s.sc.Delete()
	}
}

// Pair is the dataset the scene started from.
func (s *Scene) Pair() *dataset.Pair { return s.pair }

// Iso is the isovalue of the balanced set.
func (s *Scene) Iso() float32 { return s.iso }

// Framebuffer holds the last frame's image (color attachment 0), for
// gpu.Context.BlitToDefault.
func (s *Scene) Framebuffer() *gpu.Framebuffer { return s.fb }

// Texture is the last frame's image.
func (s *Scene) Texture() *gpu.Texture { return s.tex }

// Size is the image size.
func (s *Scene) Size() (w, h int) { return s.opts.Width, s.opts.Height }

// Resize renders w × h images from the next frame on.
func (s *Scene) Resize(w, h int) error {
	if w == s.opts.Width && h == s.opts.Height {
		return nil
	}
	o := s.opts
	o.Width, o.Height = w, h
	ro := s.rendererOptions()
	ro.Width, ro.Height = w, h
	if err := s.r.SetOptions(ro); err != nil {
		return err
	}
	s.opts = o
	if s.hw != nil {
		s.hw.Delete()
		s.hw = nil
	}
	return s.display()
}

// SetPath chooses the renderer's path for the next frames.
func (s *Scene) SetPath(p Path) error {
	old := s.opts.Path
	s.opts.Path = p
	if err := s.r.SetOptions(s.rendererOptions()); err != nil {
		s.opts.Path = old
		return err
	}
	return nil
}

// SetIso re-extracts the balanced set at iso, on the GPU or, on a
// software renderer, on the CPU (isosurface.ExtractOnGPU says which is
// faster). The unbalanced set is decimated from it when next asked for.
func (s *Scene) SetIso(iso float32) error {
	if iso == s.iso {
		return nil
	}
	if s.pair.Volume == nil {
		return fmt.Errorf("scene: %s is a mesh: it has no isovalue to change", s.pair.Name)
	}
	if !isosurface.ExtractOnGPU(s.c.Caps()) {
		m, _, err := isosurface.Extract(s.pair.Volume, iso)
		if err != nil {
			return err
		}
		g, err := s.upload(m)
		if err != nil {
			return err
		}
		s.sets[0].Delete()
		s.sets[0] = g
		s.iso = iso
		s.gen++
		return nil
	}
	var err error
	if s.ext == nil {
		if s.ext, err = isosurface.NewExtractor(s.c, s.sc); err != nil {
			return err
		}
		if s.vol, err = volume.Upload(s.c, s.pair.Volume); err != nil {
			return err
		}
	}
	if _, err := s.ext.Extract(s.sets[0], s.vol, iso); err != nil {
		return err
	}
	s.iso = iso
	s.gen++
	return nil
}

// Forget makes the next Render render, even of an unchanged frame (the
// scripted mode's frames, which measure the renderer).
func (s *Scene) Forget() { s.haveKey = false }

// Decimating reports whether an unbalanced set is being made.
func (s *Scene) Decimating() bool {
	s.dec.mu.Lock()
	defer s.dec.mu.Unlock()
	return s.dec.running
}

// startDecimation starts decimating the current balanced set in the
// background, unless a job runs already (Poll starts the next one).
func (s *Scene) startDecimation() {
	s.dec.mu.Lock()
	defer s.dec.mu.Unlock()
	if s.dec.running || (s.dec.result != nil && s.dec.gen == s.gen) {
		return
	}
	// The pair's own balanced mesh, or a download of the re-extracted one
	// (which waits for the GPU); the rest is CPU work.
	var pos, nrm [][3]float32
	src := s.pair.Balanced
	if s.gen != 0 {
		pos, nrm = s.sets[0].DownloadSoup()
		src = nil
	}
	gen, reduction, vol := s.gen, s.opts.Reduction, s.pair.Volume
	s.dec.running, s.dec.gen, s.dec.result = true, gen, nil
	s.dec.wg.Add(1)
	go func() {
		defer s.dec.wg.Done()
		m := src
		if m == nil {
			m = mesh.FromSoup(pos, nrm)
		}
		m = dataset.Unbalance(m, vol, reduction)
		s.dec.mu.Lock()
		s.dec.running, s.dec.result = false, m
		s.dec.mu.Unlock()
		if s.opts.Wake != nil {
			s.opts.Wake()
		}
	}()
}

// Poll takes a finished decimation. It reports whether the unbalanced set
// changed (a frame of it needs rendering again). A decimation of a surface
// that has been re-extracted since is dropped, and the current one is
// started when the unbalanced set is wanted.
func (s *Scene) Poll() (bool, error) {
	s.dec.mu.Lock()
	res, gen := s.dec.result, s.dec.gen
	running := s.dec.running
	if res != nil {
		s.dec.result = nil
	}
	s.dec.mu.Unlock()
	changed := false
	if res != nil && gen == s.gen {
		m, err := s.upload(res)
		if err != nil {
			return false, err
		}
		if s.sets[1] != nil {
			s.sets[1].Delete()
		}
		s.sets[1] = m
		s.unbalancedGen = gen
		changed = true
	}
	if !running && s.wantUnbalanced && s.unbalancedGen != s.gen {
		s.startDecimation()
	}
	return changed, nil
}

// PrepareUnbalanced makes the unbalanced set of the current surface now,
// waiting for its decimation (the scripted mode's -unbalanced).
func (s *Scene) PrepareUnbalanced() error {
	s.wantUnbalanced = true
	if s.unbalancedGen == s.gen {
		return nil
	}
	s.startDecimation()
	for s.unbalancedGen != s.gen {
		if _, err := s.WaitDecimation(); err != nil {
			return err
		}
	}
	return nil
}

// WaitDecimation waits for a running decimation and takes it (Poll).
func (s *Scene) WaitDecimation() (bool, error) {
	s.dec.wg.Wait()
	return s.Poll()
}

// Render draws the balanced or unbalanced set as cam sees it into the
// display texture, with the compute renderer, or with the hardware
// pipeline's primitive ids as colours.
//
// A frame whose camera, polygon set, surface, path and size equal the
// last one's is that frame: the texture shows it already, and Render
// returns it with Reused set instead of rendering it again.
func (s *Scene) Render(unbalanced, hardware bool, cam view.Camera) (f Frame, err error) {
	s.wantUnbalanced = unbalanced
	f = Frame{Iso: s.iso, Hardware: hardware, Path: s.opts.Path}
	m := s.sets[0]
	if unbalanced {
		if s.unbalancedGen == s.gen {
			m, f.Unbalanced = s.sets[1], true
		} else {
			s.startDecimation()
			f.Note = "unbalanced set: decimating (CPU, background); showing the balanced set meanwhile"
		}
	}
	key := frameKey{cam: cam, asked: unbalanced, unbalanced: f.Unbalanced, hw: hardware, mesh: m, gen: s.gen, unbalancedGen: s.unbalancedGen,
		path: s.opts.Path, w: s.opts.Width, h: s.opts.Height}
	if s.haveKey && key == s.lastKey {
		f = s.last
		f.Reused = true
		return f, nil
	}
	s.haveKey = false
	f.Triangles = m.Len()
	if f.Stats, err = s.r.Render(m, cam); err != nil {
		return f, err
	}
	defer func() {
		if err == nil {
			s.last, s.lastKey, s.haveKey = f, key, true
		}
	}()
	if !hardware {
		s.tex.CopyFromBuffer(s.r.ImageBuffer())
		return f, nil
	}
	if s.hw == nil {
		var hw *rasterizer.HardwareRenderer
		if hw, err = rasterizer.NewHardwareRenderer(s.c, s.opts.Width, s.opts.Height); err != nil {
			return f, err
		}
		s.hw = hw
	}
	mvp := cam.MVP()
	s.hw.RenderMesh(m, &mvp)
	ids := s.hw.Prims()
	f.HardwareTime = s.hw.Timer().Elapsed()
	f.Agree = rasterizer.AgreeFraction(s.r.Prims(), ids)
	if len(s.idPix) != 4*len(ids) {
		s.idPix = make([]byte, 4*len(ids))
	}
	bg := s.r.Options().Material.Background
	for i, id := range ids {
		c := IDColor(id, bg)
		copy(s.idPix[4*i:], c[:])
	}
	s.tex.Write(s.idPix)
	return f, nil
}

// IDColor is the colour of primitive id in the hardware reference: a hash
// of the id, bright enough to tell from the background, which pixels
// without a primitive (raster.NoPrimitive) get.
func IDColor(id uint32, background color.RGBA) [4]byte {
	if id == raster.NoPrimitive {
		return [4]byte{background.R, background.G, background.B, background.A}
	}
	h := id * 0x9E3779B1 // Fibonacci hashing: neighbouring ids get distant colours
	h ^= h >> 15
	return [4]byte{byte(h) | 0x40, byte(h>>8) | 0x40, byte(h>>16) | 0x40, 255}
}
