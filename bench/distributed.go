//go:build mpi

package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/distributed/cluster"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["distributed"] = command{runDistributed, "sort-last rendering over MPI (mpirun -np N bench distributed): shares of the triangles per rank, composited by MIN, checked against one process"}
}

// distRun is one rank's state: bench distributed is a client of package
// cluster (the MPI job) and distributed.Scene (one rank's side of a
// polygon set's frames).
type distRun struct {
	cl   *cluster.Cluster
	rank int
	size int
	c    *gpu.Context
	pair *dataset.Pair // nil on a rank that holds only its bricks' slabs
	// lo and hi bound the balanced set, for the cameras: the pair's, or
	// the bricks' joined.
	lo, hi [3]float32
	bricks *distributed.Bricks // the balanced set's bricks, when -split has them
	// bricksName is the bricks' volume, for the output.
	bricksName string
	samples    int // the bricks' volume's samples
}

// camera is the view fitted to the balanced set, as dataset.Pair.Camera.
func (d *distRun) camera(v view.View, w, h int) view.Camera { return v.Fit(d.lo, d.hi, w, h) }

// agree is the cluster's agreement: every rank returns the same error.
func (d *distRun) agree(phase string, err error) error { return d.cl.Agree(phase, err) }

func runDistributed(args []string, w io.Writer) error {
	cl, err := cluster.Join(cluster.Options{Name: "bench distributed", TimeoutName: "-timeout"})
	if err != nil {
		return err
	}
	d := &distRun{cl: cl, rank: cl.Rank(), size: cl.Size()}
	if d.rank != 0 {
		w = io.Discard
	} else {
		// mpirun ends the other ranks with SIGTERM when one dies: say so
		// rather than vanish.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		go func() {
			<-sig
			fmt.Fprintf(os.Stderr, "bench distributed: rank 0: terminated by mpirun during %q: another rank died (mpirun names it)\n", cl.Phase())
			os.Exit(4)
		}()
	}
	err = d.run(args, w)
	failed := err != nil && !errors.Is(err, flag.ErrHelp)
	if failed && d.rank == 0 {
		// Said before MPI_Finalize, where the other ranks wait: once one
		// exits non-zero mpirun ends the job, maybe before rank 0 speaks.
		fmt.Fprintln(os.Stderr, err)
	}
	cl.Leave()
	if failed {
		// Only rank 0's status says the job failed (it said why); a
		// non-zero status elsewhere would race its message.
		os.Exit(pick(d.rank == 0, 1, 0))
	}
	return err
}

// distFlags are bench distributed's own flags beside the dataset's.
type distFlags struct {
	*expFlags
	values              map[string]string // every flag's value as parsed, for sameFlags
	sets, balance, fail string
	device, split       string
	resolve             string
	splitList           []string
	slabs               int
	checkpoint          float64
	frames              int
	timeout             time.Duration
	setList             []int
	policyList          []distributed.Policy
	failRank            int
	failKind            string
	checkImage          bool
}

func (d *distRun) parse(args []string) (*distFlags, error) {
	fs := flag.NewFlagSet("distributed", flag.ContinueOnError)
	if d.rank != 0 {
		fs.SetOutput(io.Discard)
	}
	f := &distFlags{expFlags: &expFlags{cmd: "distributed", fs: fs, lanes: "all", policies: "CostEffective", calPath: "-", commonFlags: &commonFlags{reps: 1}}}
	fs.StringVar(&f.volume, "volume", "", "a NIfTI-1 volume (.nii or .nii.gz) to take the surface from instead of a built-in field")
	fs.StringVar(&f.field, "field", volume.Default().Name, "built-in field to sample: "+strings.Join(fieldNames(), ", "))
	cliflag.Int(fs, &f.res, "res", 32, "grid size per axis (a volume is resampled to it when larger; 0: as it is)", 0, math.MaxInt)
	cliflag.Float(fs, &f.iso, "iso", 0, "isovalue (default: the field's own; for -volume the middle of its range)", cliflag.Float32)
	cliflag.Int(fs, &f.reduction, "reduction", 8, "the unbalanced set is the balanced set decimated to 1/reduction of its triangles", 1, math.MaxInt)
	cliflag.Int(fs, &f.width, "width", 128, "image width in pixels", 1, raster.MaxImageSize)
	cliflag.Int(fs, &f.height, "height", 128, "image height in pixels", 1, raster.MaxImageSize)
	fs.StringVar(&f.views, "views", "all", "views, separated by commas (or semicolons or spaces) outside parentheses: "+view.Usage+`, or "all" for the paper's four`)
	fs.StringVar(&f.sets, "sets", "balanced,unbalanced", "polygon sets to render: balanced (marching cubes), unbalanced (decimated)")
	fs.StringVar(&f.balance, "balance", "Static,LeftRightHandoff,CostEffective", "balancing between ranks, comma-separated: Static, LeftRightHandoff (LRH), CostEffective")
	cliflag.Int(fs, &f.frames, "frames", 4, "frames per view and balancing choice; the boundaries move between frames", 1, maxReps)
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "the longest a rank waits for the others at a collective before ending the job")
	fs.StringVar(&f.split, "split", "triangles,bricks", "how the ranks split the data, comma-separated: triangles (shares of each set's triangles), bricks (z-slabs of the volume's cell layers with a one-layer overlap, each rank extracting its own surface; the balanced set only)")
	cliflag.Int(fs, &f.slabs, "slabs", 8, "pieces per rank at the first, equal partition: the unit of rendering, of the checkpoint and of the handoffs", 1, 1<<20)
	cliflag.Float(fs, &f.checkpoint, "checkpoint", 0.5, "LeftRightHandoff's checkpoint: the fraction of its pieces a rank renders before it signals its partner", cliflag.Float32)
	fs.StringVar(&f.resolve, "resolve", "root", `where the image is shaded: "root" (rank 0 resolves the composited words from the whole mesh) or "ranks" (the composited words are allgathered, each rank shades the pixels its own triangles won, and a bitwise-OR reduction joins them at rank 0: no rank needs another's triangles)`)
	fs.StringVar(&f.device, "device", "rank", `the GL device of each rank: "rank" (the local rank, among the ranks on its node, mod the node's EGL devices: one GPU per rank, llvmpipe shared), "any" (the first that works, or DPGL_EGL_DEVICE), or an EGL device index`)
	fs.BoolVar(&f.checkImage, "check", true, "rank 0 renders the whole mesh itself and checks the composited image against it bit for bit; with -check=false, -split bricks and -resolve ranks no rank builds the whole dataset: each samples or reads only its bricks' slabs of the volume (one that outgrows a host)")
	fs.StringVar(&f.fail, "fail", "", "fault injection for tests: RANK:KIND makes that rank fail while rendering, KIND one of error (a run-time error, as a lost context), hang, exit (a crash), kill (SIGKILL), slow (100 ms more a piece: a loaded GPU)")
	fs.Usage = usageFor(fs, "distributed", "Sort-last rendering over MPI: run it as `mpirun -np N bench distributed`. Each rank draws a share of the triangles\n"+
		"into its own visibility buffer; the shares are composited by a MIN reduce-scatter and a gather at rank 0,\n"+
		"which shades the image and checks it bit for bit against its own single-process frame. Between frames\n"+
		"the -balance policy moves the share boundaries from the ranks' times. Prints per-rank times, the\n"+
		"compositing time, the imbalance (slowest/mean rank time) and the handoffs.")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("bench distributed: unexpected argument %q (flags come after the command)", fs.Arg(0))
	}
	f.values = map[string]string{}
	fs.VisitAll(func(fl *flag.Flag) { f.values[fl.Name] = fl.Value.String() })
	return f, f.validate()
}

// validate checks the flags parse does not check as it reads them.
func (f *distFlags) validate() error {
	if err := f.check(); err != nil {
		return err
	}
	for _, s := range strings.Split(f.sets, ",") {
		i := slices.Index(setNames[:], strings.TrimSpace(s))
		if i < 0 {
			return f.errorf("sets", f.sets, "no set %q (have balanced, unbalanced)", s)
		}
		f.setList = append(f.setList, i)
	}
	for _, s := range strings.Split(f.balance, ",") {
		p, err := distributed.ParsePolicy(strings.TrimSpace(s))
		if err != nil {
			return f.errorf("balance", f.balance, "%v", err)
		}
		f.policyList = append(f.policyList, p)
	}
	for _, sp := range strings.Split(f.split, ",") {
		sp = strings.TrimSpace(sp)
		if sp != "triangles" && sp != "bricks" {
			return f.errorf("split", f.split, "no split %q (have triangles, bricks)", sp)
		}
		f.splitList = append(f.splitList, sp)
	}
	if f.resolve != "root" && f.resolve != "ranks" {
		return f.errorf("resolve", f.resolve, `want "root" or "ranks"`)
	}
	if !(f.checkpoint > 0 && f.checkpoint < 1) {
		return f.errorf("checkpoint", fmt.Sprint(f.checkpoint), "want a fraction between 0 and 1, both excluded")
	}
	if f.frames < 1 {
		return f.errorf("frames", strconv.Itoa(f.frames), "want at least 1")
	}
	if f.timeout <= 0 {
		return f.errorf("timeout", f.timeout.String(), "want a positive duration")
	}
	if f.device != "rank" && f.device != "any" {
		if i, err := strconv.Atoi(f.device); err != nil || i < 0 {
			return f.errorf("device", f.device, `want "rank", "any" or an EGL device index`)
		}
	}
	f.failRank = -1
	if f.fail != "" {
		r, kind, ok := strings.Cut(f.fail, ":")
		n, err := strconv.Atoi(r)
		if !ok || err != nil || n < 0 || !slices.Contains([]string{"error", "hang", "exit", "kill", "slow"}, kind) {
			return f.errorf("fail", f.fail, "want RANK:KIND with KIND error, hang, exit, kill or slow")
		}
		f.failRank, f.failKind = n, kind
	}
	return nil
}

// run is one rank's whole command; every rank returns the same error.
func (d *distRun) run(args []string, w io.Writer) error {
	f, err := d.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err := d.agree("parsing the flags", err); err != nil {
		return err
	}
	d.cl.SetTimeout(f.timeout)
	if err := d.agree("checking that every rank has the same flags", d.sameFlags(f.values)); err != nil {
		return err
	}
	c, err := d.cl.OpenDevice(f.device)
	if err := d.agree("making a GL context", err); err != nil {
		return err
	}
	defer c.Delete()
	d.c = c
	devices := d.cl.Devices(c)
	held, err := d.makeData(f)
	if err != nil {
		return err
	}
	sc, err := scan.New(c)
	if err := d.agree("making the scanner", err); err != nil {
		return err
	}
	defer sc.Delete()
	o := rasterizer.DefaultOptions()
	o.Width, o.Height = f.width, f.height
	quiet := func(string, ...any) {}
	o.ScanConversion.Logf, o.ZBuffer.Logf = quiet, quiet
	r, err := rasterizer.New(sc, o)
	if err := d.agree("making the renderer", err); err != nil {
		return err
	}
	defer r.Delete()
	d.printSetUp(w, f, r, devices, held)
	if err := d.agree("warming up", d.warmUp(f, r)); err != nil {
		return err
	}
	t := &resultTable{header: []string{"set", "split", "balance", "view", "rank ms (last frame)", "composite ms", "imbalance first→last", "handoffs (units)", "image"}, left: 4}
	var differ []string
	for _, set := range f.setList {
		bad, err := d.renderSets(f, r, set, t)
		if err != nil {
			return err
		}
		differ = append(differ, bad...)
	}
	fmt.Fprintln(w)
	t.writeText(w)
	fmt.Fprintf(w, "  split: triangles (shares of the set's triangles) or bricks (z-slabs of the volume's cell layers, each rank extracting its own with a one-layer overlap);\n"+
		"  rank ms: each rank's wall time for its share in pieces (-slabs a rank at the start; extraction and upload of pieces new to it, render, read-back and minimum of the visibility words,\n"+
		"  and for LeftRightHandoff its signals, the wait for its partner's reply and the pieces handed to it); composite ms: the slowest rank's reduce-scatter and gather\n"+
		"  (-resolve ranks: and its resolve and the OR reduction; median frame);\n"+
		"  imbalance: slowest rank / mean; handoffs: pieces moved between ranks over the frames (LeftRightHandoff: replies that moved pieces; CostEffective: boundaries moved), and the units they held;\n"+
		"  image: rank 0's composited visibility words and shaded pixels against its single-process frame\n")
	if len(differ) > 0 {
		fmt.Fprintf(w, "THE COMPOSITED IMAGES DIFFER from one process's:\n  %s\n", strings.Join(differ, "\n  "))
		return errors.New("bench distributed: the composited image differs from the single-process image")
	}
	if !f.checkImage {
		fmt.Fprintf(w, "the composited images were not checked (-check=false)\n")
		return nil
	}
	fmt.Fprintf(w, "every composited image equals the single-process image bit for bit (visibility words and pixels)\n")
	return nil
}

// sameFlags checks that every rank was started with the same flags (a
// rank given another -res would otherwise meet the others with buffers of
// another size, and MPI would end the job with a bare MPI_ERR_TRUNCATE):
// an allgather of each flag value's hash, in the flags' name order. Its
// error, on a rank whose values differ from rank 0's, names the flags and
// this rank's values.
func (d *distRun) sameFlags(values map[string]string) error {
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	slices.Sort(names)
	send := make([]uint64, len(names))
	for i, n := range names {
		h := fnv.New64a()
		h.Write([]byte(values[n]))
		send[i] = h.Sum64()
	}
	recv := make([]uint64, len(send)*d.size)
	d.cl.SetPhase("checking that every rank has the same flags")
	d.cl.AllgatherUint64(send, recv)
	var differ []string
	for i, n := range names {
		if send[i] != recv[i] { // rank 0's is first
			differ = append(differ, fmt.Sprintf("-%s %s", n, values[n]))
		}
	}
	if len(differ) > 0 {
		return fmt.Errorf("started with %s, unlike rank 0: every rank needs the same flags", strings.Join(differ, ", "))
	}
	return nil
}

// makeData builds the whole dataset where something needs it (the
// triangles split at every rank; rank 0's check and its resolve of the
// whole mesh) and the bricks; otherwise a rank holds only its bricks'
// slabs of the volume. It returns every rank's samples held, with bricks.
func (d *distRun) makeData(f *distFlags) (held []float64, err error) {
	if !slices.Contains(f.setList, unbalancedSet) {
		// No run draws the unbalanced set: no decimation (with reduction
		// 1 it is the balanced set itself).
		f.reduction = 1
	}
	if slices.Contains(f.splitList, "triangles") || (d.rank == 0 && (f.checkImage || f.resolve == "root")) {
		d.pair, err = f.makeDataset()
	}
	if err := d.agree("building the dataset", err); err != nil {
		return nil, err
	}
	if d.pair != nil {
		d.lo, d.hi = d.pair.Lo, d.pair.Hi
	}
	if slices.Contains(f.splitList, "bricks") && slices.Contains(f.setList, balancedSet) {
		if err := d.newBricks(f); err != nil {
			return nil, err
		}
		held = d.bricks.Held
	}
	return held, nil
}

// printSetUp says, at rank 0, where the ranks run, what they render and
// how they composite.
func (d *distRun) printSetUp(w io.Writer, f *distFlags, r *rasterizer.Renderer, devices []string, held []float64) {
	c := d.c
	fmt.Fprintf(w, "distributed: %d ranks on %s (%s), rank 0's; image %dx%d, visibility %s\n", d.size, c.Caps().Renderer, c.Caps().Version, f.width, f.height, visName(r))
	for _, line := range devices {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if pair := d.pair; pair != nil {
		fmt.Fprintf(w, "dataset: %s at isovalue %g: balanced %d triangles, unbalanced %d\n", pair.Name, pair.Iso, pair.Balanced.Len(), pair.Unbalanced.Len())
	}
	if b := d.bricks; b != nil {
		fmt.Fprintf(w, "bricks: %s at isovalue %g: %d triangles over %d cell layers; each rank samples or reads only its brick's sample layers and one beyond each face, samples a rank: %s of %d",
			d.bricksName, b.Iso, b.Triangles, b.Units, fmtCounts(held), d.samples)
		if d.pair != nil {
			fmt.Fprintf(w, " (rank 0 also holds the whole dataset: %s)", pick(f.checkImage, "-check", "-resolve root"))
		}
		fmt.Fprintln(w)
	}
	pixels := f.width * f.height
	block := (pixels + d.size - 1) / d.size
	fmt.Fprintf(w, "compositing: MIN reduce-scatter of %d KiB a rank (%d-word blocks), ", 8*block*d.size/1024, block)
	if f.resolve == "ranks" {
		fmt.Fprintf(w, "an allgather of the blocks (%d KiB at every rank), each rank shading the pixels its triangles won, a bitwise-OR reduction of the %d KiB of pixels at rank 0", 8*block*d.size/1024, 4*pixels/1024)
	} else {
		fmt.Fprintf(w, "then a gather of the blocks at rank 0 (%d KiB in all), which shades them", 8*block*d.size/1024)
	}
	fmt.Fprintf(w, "; the ids made global by each piece's first triangle (bricks: an exclusive scan of the layers' triangle counts)\n")
}

// renderSets renders one set under every split and balancing choice the
// flags name, adding their rows to t; it returns the image mismatches.
func (d *distRun) renderSets(f *distFlags, r *rasterizer.Renderer, set int, t *resultTable) (differ []string, err error) {
	var m *mesh.Mesh
	if d.pair != nil {
		m = pick(set == unbalancedSet, d.pair.Unbalanced, d.pair.Balanced)
	}
	var whole *mesh.GPU
	if d.rank == 0 && m != nil {
		// Rank 0 holds the whole mesh: the resolve pass shades from it,
		// and its single-process frame is the check.
		whole, err = mesh.Upload(d.c, m)
	}
	if err := d.agree("uploading the mesh", err); err != nil {
		return nil, err
	}
	if whole != nil {
		defer whole.Delete()
	}
	for _, split := range f.splitList {
		if split == "bricks" && set != balancedSet {
			// Decimation is global: bricks cannot make the unbalanced set.
			continue
		}
		var src *distributed.Source
		if split == "triangles" {
			src = distributed.Triangles(d.c, m)
		} else {
			src = d.bricks.Source
		}
		for _, pol := range f.policyList {
			rows, bad, err := d.renderSet(f, r, src, whole, set, pol)
			if err != nil {
				return nil, err
			}
			for _, row := range rows {
				t.add(row...)
			}
			differ = append(differ, bad...)
		}
	}
	return differ, nil
}

func visName(r *rasterizer.Renderer) string {
	if r.Visibility64() {
		return "64-bit"
	}
	return "32-bit two-pass, words joined on the host"
}

// warmUp renders this rank's first share of each set once under
// balancer.Always and once as configured, untimed: llvmpipe compiles a
// kernel at its first dispatch, seconds on a busy machine, which would
// otherwise land in one rank's time (and in the others' waits).
func (d *distRun) warmUp(f *distFlags, r *rasterizer.Renderer) error {
	o := r.Options()
	always := o
	always.ScanConversion.Policy, always.ZBuffer.Policy = balancer.Always, balancer.Always
	for _, set := range f.setList {
		var m *mesh.Mesh
		switch {
		case d.pair != nil && set == unbalancedSet:
			m = d.pair.Unbalanced
		case d.pair != nil:
			m = d.pair.Balanced
		case set == balancedSet && d.bricks != nil:
			m = d.bricks.First // this rank's first brick alone
		default:
			continue
		}
		b := distributed.Partition(m.Len(), d.size)
		part, err := distributed.UploadShare(d.c, m, b[d.rank], b[d.rank+1])
		if err != nil {
			return err
		}
		for _, opts := range []rasterizer.Options{always, o} {
			if err = r.SetOptions(opts); err == nil {
				_, err = r.Render(part, d.camera(f.viewList[0], o.Width, o.Height))
			}
			if err != nil {
				break
			}
		}
		part.Delete()
		if err != nil {
			return err
		}
	}
	return r.SetOptions(o)
}

// brickSamples are the volume the flags name, a slab at a time, and its
// isovalue: no rank builds the whole volume for its bricks.
func (f *distFlags) brickSamples() (distributed.Samples, float32, error) {
	if f.mesh != "" {
		return distributed.Samples{}, 0, errors.New("bench distributed: -split bricks needs a volume (-field or -volume), not -mesh")
	}
	if f.volume == "" {
		fl, _ := volume.ByName(f.field)
		if f.given("iso") {
			fl.Iso = float32(f.iso)
		}
		s, err := distributed.FieldSamples(fl, [3]int{f.res, f.res, f.res})
		if err != nil {
			return s, 0, fmt.Errorf("bench distributed: -field %s -res %d: %w", fl.Name, f.res, err)
		}
		return s, fl.Iso, nil
	}
	s, err := distributed.NIfTISamples(f.volume, f.res)
	if err != nil {
		return s, 0, fmt.Errorf("bench distributed: -volume %s -res %d: %w", f.volume, f.res, err)
	}
	if dd := s.Dims; min(dd[0], dd[1], dd[2]) < 2 {
		return s, 0, fmt.Errorf("bench distributed: -volume %s: a side of 1 sample (%dx%dx%d): no cells to extract a surface from", f.volume, dd[0], dd[1], dd[2])
	}
	if f.given("iso") {
		return s, float32(f.iso), nil
	}
	// The whole file's range, as makeDataset's DefaultIso takes it before
	// resampling: a read keeping one layer passes every voxel.
	_, h, err := volume.LoadNIfTILayers(f.volume, 0, 1)
	if err != nil {
		return s, 0, fmt.Errorf("bench distributed: -volume %s: %w", f.volume, err)
	}
	if h.Finite == 0 {
		return s, 0, fmt.Errorf("bench distributed: -volume %s: no voxel is a finite number, so it has no surface", f.volume)
	}
	return s, float32((float64(h.Min) + float64(h.Max)) / 2), nil
}

// newBricks makes the bricks split of the balanced set
// (distributed.NewBricks) and checks it against the whole dataset where
// this rank holds it.
func (d *distRun) newBricks(f *distFlags) error {
	s, iso, err := f.brickSamples()
	if err := d.agree("reading the volume's header", err); err != nil {
		return err
	}
	b, err := distributed.NewBricks(d.cl, d.c, s, iso)
	if err != nil {
		return fmt.Errorf("bench distributed: %w", err)
	}
	d.bricks, d.bricksName, d.samples = b, s.Name, s.Dims[0]*s.Dims[1]*s.Dims[2]
	switch {
	case d.pair == nil:
		d.lo, d.hi = b.Lo, b.Hi
	case b.Triangles != d.pair.Balanced.Len():
		err = fmt.Errorf("bench distributed: the bricks hold %d triangles, the volume's surface %d", b.Triangles, d.pair.Balanced.Len())
	case b.Lo != d.pair.Lo || b.Hi != d.pair.Hi:
		err = fmt.Errorf("bench distributed: the bricks' bounds %v–%v, the volume's surface's %v–%v", b.Lo, b.Hi, d.pair.Lo, d.pair.Hi)
	}
	return d.agree("checking the bricks against the whole dataset", err)
}

// fmtCounts is counts as whole numbers, space-separated.
func fmtCounts(counts []float64) string {
	s := make([]string, len(counts))
	for i, c := range counts {
		s[i] = strconv.FormatFloat(c, 'f', 0, 64)
	}
	return strings.Join(s, " ")
}

// renderSet renders one split of a set at every view under one balancing
// policy (a distributed.Scene), and returns the table rows and the image
// mismatches.
func (d *distRun) renderSet(f *distFlags, r *rasterizer.Renderer, src *distributed.Source, whole *mesh.GPU, set int, pol distributed.Policy) (rows [][]string, differ []string, err error) {
	w, h := r.Options().Width, r.Options().Height
	sc, err := distributed.NewScene(d.cl, r, src, distributed.SceneOptions{
		Policy: pol, Slabs: f.slabs, Checkpoint: f.checkpoint, ResolveAtRanks: f.resolve == "ranks",
		Label:  fmt.Sprintf("%s set (%s)", setNames[set], src.Split),
		Inject: func(err error) error { return d.inject(f, err) },
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bench distributed: %w", err)
	}
	defer sc.Delete()
	for vi, v := range f.viewList {
		cam := d.camera(v, w, h)
		var first float64
		handoffs, units := 0, 0
		var rankMs, compMs []float64
		same := true
		for frame := 0; frame < f.frames; frame++ {
			st, err := sc.Frame(cam, v.Name)
			if err != nil {
				return nil, nil, fmt.Errorf("bench distributed: %w", err)
			}
			handoffs, units = handoffs+st.Handoffs, units+st.Units
			if frame == 0 {
				first = distributed.Imbalance(st.Rank)
			}
			rankMs, compMs = st.Rank, append(compMs, st.Composite)
			if d.rank == 0 && !f.checkImage && f.resolve == "root" {
				if err := r.Resolve(whole, cam, sc.Visibility()); err != nil {
					return nil, nil, err
				}
			}
			if d.rank == 0 && f.checkImage {
				n, err := distributed.Compare(r, whole, cam, sc.Visibility(), sc.Pixels())
				if err != nil {
					return nil, nil, fmt.Errorf("bench distributed: rank 0: %w", err)
				}
				if n > 0 {
					same = false
					differ = append(differ, fmt.Sprintf("%s set, %s, %v, %s, frame %d: %d pixels differ", setNames[set], src.Split, pol, v.Name, frame, n))
				}
			}
		}
		rows = append(rows, d.row(f, vi, set, src, pol, v, rankMs, compMs, first, handoffs, units, same))
	}
	return rows, differ, nil
}

// row is a view's row of the table.
func (d *distRun) row(f *distFlags, vi, set int, src *distributed.Source, pol distributed.Policy, v view.View, rankMs, compMs []float64, first float64, handoffs, units int, same bool) []string {
	ms := make([]string, len(rankMs))
	for k, t := range rankMs {
		ms[k] = fmt.Sprintf("%.1f", 1e3*t)
	}
	slices.Sort(compMs)
	check := "identical"
	if !f.checkImage {
		check = "not checked"
	}
	if !same {
		check = "DIFFERS"
	}
	setName, splitName, polName := "", "", ""
	if vi == 0 {
		setName, splitName, polName = setNames[set], src.Split, pol.String()
	}
	return []string{setName, splitName, polName, v.Name, strings.Join(ms, " "), fmt.Sprintf("%.2f", 1e3*compMs[len(compMs)/2]),
		fmt.Sprintf("%.2f→%.2f", first, distributed.Imbalance(rankMs)), fmt.Sprintf("%d (%d)", handoffs, units), check}
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// inject is the -fail fault at this rank, in each piece it renders (so,
// under LeftRightHandoff, amid the protocol).
func (d *distRun) inject(f *distFlags, err error) error {
	if f.failRank != d.rank {
		return err
	}
	switch f.failKind {
	case "error":
		return errors.New("injected failure (-fail): the GL context is lost")
	case "hang":
		select {}
	case "exit":
		os.Exit(7)
	case "kill":
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	case "slow":
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
