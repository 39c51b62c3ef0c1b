//go:build mpi

package main

import (
	"errors"
	"flag"
	"fmt"
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
	"github.com/dpgl/dpgl/internal/mpi"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["distributed"] = command{runDistributed, "sort-last rendering over MPI (mpirun -np N bench distributed): shares of the triangles per rank, composited by MIN, checked against one process"}
}

// mpiComm is distributed.Comm over MPI_COMM_WORLD, every wait limited.
type mpiComm struct{ timeout time.Duration }

func (c mpiComm) Rank() int { return mpi.Rank() }
func (c mpiComm) Size() int { return mpi.Size() }
func (c mpiComm) ReduceScatterMin(send, recv []uint64) error {
	return mpi.ReduceScatterMin(send, recv, c.timeout)
}
func (c mpiComm) Gather(send, recv []uint64, root int) error {
	return mpi.Gather(send, recv, root, c.timeout)
}
func (c mpiComm) AllgatherUint64(send, recv []uint64) error {
	return mpi.AllgatherUint64(send, recv, c.timeout)
}
func (c mpiComm) ReduceOr(send, recv []uint32, root int) error {
	return mpi.ReduceOr(send, recv, root, c.timeout)
}
func (c mpiComm) AllgatherFloat64(send, recv []float64) error {
	return mpi.AllgatherFloat64(send, recv, c.timeout)
}

// handoffTag is the Left-Right Handoff's messages' MPI tag.
const handoffTag = 20

func (c mpiComm) Send(to int, msg distributed.Msg) error {
	m, err := mpi.Isend(msg[:], to, handoffTag)
	if err != nil {
		return err
	}
	if err := m.Wait(c.timeout); err != nil {
		return err // the job is aborted: m stays in MPI's hands
	}
	m.Free()
	return nil
}

func (c mpiComm) Receive(from int) (distributed.Receipt, error) {
	m, err := mpi.Irecv(len(distributed.Msg{}), from, handoffTag)
	if err != nil {
		return nil, err
	}
	return &mpiReceipt{m: m, timeout: c.timeout}, nil
}

// mpiReceipt is a receive under way; its C memory is freed when it
// completes.
type mpiReceipt struct {
	m       *mpi.Message
	timeout time.Duration
	msg     distributed.Msg
	done    bool
}

func (r *mpiReceipt) finish() {
	copy(r.msg[:], r.m.Words())
	r.m.Free()
	r.done = true
}

func (r *mpiReceipt) Test() (distributed.Msg, bool, error) {
	if r.done {
		return r.msg, true, nil
	}
	ok, err := r.m.Test()
	if err != nil || !ok {
		return r.msg, false, err
	}
	r.finish()
	return r.msg, true, nil
}

func (r *mpiReceipt) Wait() (distributed.Msg, error) {
	if r.done {
		return r.msg, nil
	}
	if err := r.m.Wait(r.timeout); err != nil {
		return r.msg, err
	}
	r.finish()
	return r.msg, nil
}

// distRun is one rank's state.
type distRun struct {
	rank, size int
	local      int // rank among the ranks on this node
	timeout    time.Duration
	comm       mpiComm
	phase      string // what this rank is doing, for the messages
	c          *gpu.Context
	pair       *dataset.Pair // nil on a rank that holds only its bricks' slabs
	// lo and hi bound the balanced set, for the cameras: the pair's, or
	// the bricks' joined.
	lo, hi [3]float32
	bricks *source // the balanced set's bricks, when -split has them
}

// camera is the view fitted to the balanced set, as dataset.Pair.Camera.
func (d *distRun) camera(v view.View, w, h int) view.Camera { return v.Fit(d.lo, d.hi, w, h) }

// errorBytes is the room for one rank's error in an agreement.
const errorBytes = 400

// agree tells every rank whether any failed (err non-nil) before phase
// ends: an allgather of the ranks' errors. It returns an error naming
// every failed rank. A rank that does not arrive within the time limit
// ends the job from here (MPI_Abort), rank 0 first: the other ranks wait
// twice as long.
func (d *distRun) agree(phase string, err error) error {
	d.phase = phase
	send := make([]byte, errorBytes)
	if err != nil {
		msg := err.Error()
		if len(msg) > errorBytes-1 {
			msg = msg[:errorBytes-4] + "..."
		}
		copy(send, msg)
		send[len(send)-1] = 1 // failed, even if the message is empty
	}
	recv := make([]byte, errorBytes*d.size)
	d.check(mpi.AllgatherBytes(send, recv, d.wait()))
	var failed []string
	for r := 0; r < d.size; r++ {
		b := recv[r*errorBytes : (r+1)*errorBytes]
		if b[errorBytes-1] == 0 {
			continue
		}
		msg := strings.TrimRight(string(b[:errorBytes-1]), "\x00")
		// Ranks that fail alike (a bad file) are named once.
		if n := len(failed); n > 0 && strings.HasSuffix(failed[n-1], ": "+msg) {
			failed[n-1] = strings.Replace(failed[n-1], ": "+msg, fmt.Sprintf(",%d: %s", r, msg), 1)
			continue
		}
		failed = append(failed, fmt.Sprintf("rank %d: %s", r, msg))
	}
	if len(failed) > 0 {
		return fmt.Errorf("bench distributed: %s failed: %s", phase, strings.Join(failed, "; "))
	}
	return nil
}

// wait is this rank's time limit on a collective.
func (d *distRun) wait() time.Duration {
	if d.rank == 0 {
		return d.timeout
	}
	return 2 * d.timeout
}

// check ends the job when a collective failed or timed out: the ranks can
// no longer agree on anything.
func (d *distRun) check(err error) {
	if err == nil {
		return
	}
	if errors.Is(err, mpi.ErrTimeout) {
		fmt.Fprintf(os.Stderr, "bench distributed: rank %d: another rank did not reach %q within -timeout %v (stuck or dead): ending the job\n", d.rank, d.phase, d.wait())
	} else {
		fmt.Fprintf(os.Stderr, "bench distributed: rank %d: during %q: %v: ending the job\n", d.rank, d.phase, err)
	}
	mpi.Abort(3)
}

func runDistributed(args []string, w io.Writer) error {
	if err := mpi.Init(); err != nil {
		return fmt.Errorf("bench distributed: %w (run it under mpirun)", err)
	}
	d := &distRun{rank: mpi.Rank(), size: mpi.Size(), phase: "start"}
	if d.rank != 0 {
		w = io.Discard
	} else {
		// mpirun ends the other ranks with SIGTERM when one dies: say so
		// rather than vanish.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		go func() {
			<-sig
			fmt.Fprintf(os.Stderr, "bench distributed: rank 0: terminated by mpirun during %q: another rank died (mpirun names it)\n", d.phase)
			os.Exit(4)
		}()
	}
	err := d.run(args, w)
	failed := err != nil && !errors.Is(err, flag.ErrHelp)
	if failed && d.rank == 0 {
		// Said before MPI_Finalize, where the other ranks wait: once one
		// exits non-zero mpirun ends the job, maybe before rank 0 speaks.
		fmt.Fprintln(os.Stderr, err)
	}
	mpi.Finalize()
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
	if err := f.check(); err != nil {
		return nil, err
	}
	for _, s := range strings.Split(f.sets, ",") {
		i := slices.Index(setNames[:], strings.TrimSpace(s))
		if i < 0 {
			return nil, f.errorf("sets", f.sets, "no set %q (have balanced, unbalanced)", s)
		}
		f.setList = append(f.setList, i)
	}
	for _, s := range strings.Split(f.balance, ",") {
		p, err := distributed.ParsePolicy(strings.TrimSpace(s))
		if err != nil {
			return nil, f.errorf("balance", f.balance, "%v", err)
		}
		f.policyList = append(f.policyList, p)
	}
	for _, sp := range strings.Split(f.split, ",") {
		sp = strings.TrimSpace(sp)
		if sp != "triangles" && sp != "bricks" {
			return nil, f.errorf("split", f.split, "no split %q (have triangles, bricks)", sp)
		}
		f.splitList = append(f.splitList, sp)
	}
	if f.resolve != "root" && f.resolve != "ranks" {
		return nil, f.errorf("resolve", f.resolve, `want "root" or "ranks"`)
	}
	if !(f.checkpoint > 0 && f.checkpoint < 1) {
		return nil, f.errorf("checkpoint", fmt.Sprint(f.checkpoint), "want a fraction between 0 and 1, both excluded")
	}
	if f.frames < 1 {
		return nil, f.errorf("frames", strconv.Itoa(f.frames), "want at least 1")
	}
	if f.timeout <= 0 {
		return nil, f.errorf("timeout", f.timeout.String(), "want a positive duration")
	}
	if f.device != "rank" && f.device != "any" {
		if i, err := strconv.Atoi(f.device); err != nil || i < 0 {
			return nil, f.errorf("device", f.device, `want "rank", "any" or an EGL device index`)
		}
	}
	f.failRank = -1
	if f.fail != "" {
		r, kind, ok := strings.Cut(f.fail, ":")
		n, err := strconv.Atoi(r)
		if !ok || err != nil || n < 0 || !slices.Contains([]string{"error", "hang", "exit", "kill", "slow"}, kind) {
			return nil, f.errorf("fail", f.fail, "want RANK:KIND with KIND error, hang, exit, kill or slow")
		}
		f.failRank, f.failKind = n, kind
	}
	return f, nil
}

// run is one rank's whole command; every rank returns the same error.
func (d *distRun) run(args []string, w io.Writer) error {
	d.timeout = time.Minute
	f, err := d.parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	if err := d.agree("parsing the flags", err); err != nil {
		return err
	}
	d.timeout = f.timeout
	d.comm = mpiComm{timeout: d.wait()}

	c, err := d.openDevice(f.device)
	if err := d.agree("making a GL context", err); err != nil {
		return err
	}
	defer c.Delete()
	d.c = c
	devices, err := d.devices()
	if err != nil {
		return err
	}
	// The whole dataset is built where something needs it: the triangles
	// split (every rank), rank 0's check and its resolve of the whole
	// mesh. Otherwise a rank holds only its bricks' slabs of the volume.
	var pair *dataset.Pair
	if slices.Contains(f.splitList, "triangles") || (d.rank == 0 && (f.checkImage || f.resolve == "root")) {
		pair, err = f.makeDataset()
	}
	d.pair = pair
	if err := d.agree("building the dataset", err); err != nil {
		return err
	}
	if pair != nil {
		d.lo, d.hi = pair.Lo, pair.Hi
	}
	var held []float64 // every rank's samples of the volume, with bricks
	if slices.Contains(f.splitList, "bricks") && slices.Contains(f.setList, balancedSet) {
		if d.bricks, held, err = d.newBricks(f); err != nil {
			return err
		}
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

	fmt.Fprintf(w, "distributed: %d ranks on %s (%s), rank 0's; image %dx%d, visibility %s\n", d.size, c.Caps().Renderer, c.Caps().Version, f.width, f.height, visName(r))
	for _, line := range devices {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if pair != nil {
		fmt.Fprintf(w, "dataset: %s at isovalue %g: balanced %d triangles, unbalanced %d\n", pair.Name, pair.Iso, pair.Balanced.Len(), pair.Unbalanced.Len())
	}
	if b := d.bricks; b != nil {
		fmt.Fprintf(w, "bricks: %s at isovalue %g: %d triangles over %d cell layers; each rank samples or reads only its brick's sample layers and one beyond each face, samples a rank: %s of %d",
			b.name, b.iso, b.triangles, b.units, fmtCounts(held), b.samples)
		if pair != nil {
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
	if err := d.agree("warming up", d.warmUp(f, r)); err != nil {
		return err
	}
	t := &resultTable{header: []string{"set", "split", "balance", "view", "rank ms (last frame)", "composite ms", "imbalance first→last", "handoffs (units)", "image"}, left: 4}
	var differ []string
	for _, set := range f.setList {
		var m *mesh.Mesh
		if pair != nil {
			m = pair.Balanced
			if set == unbalancedSet {
				m = pair.Unbalanced
			}
		}
		var whole *mesh.GPU
		if d.rank == 0 && m != nil {
			// Rank 0 holds the whole mesh: the resolve pass shades from it,
			// and its single-process frame is the check.
			whole, err = mesh.Upload(c, m)
		}
		if err := d.agree("uploading the mesh", err); err != nil {
			return err
		}
		for _, split := range f.splitList {
			if split == "bricks" && set != balancedSet {
				// Decimation is global: bricks cannot make the unbalanced set.
				continue
			}
			src := d.bricks
			if split == "triangles" {
				src = d.newSource(m)
			}
			for _, pol := range f.policyList {
				rows, bad, err := d.renderSet(f, r, src, whole, set, pol)
				if err != nil {
					if whole != nil {
						whole.Delete()
					}
					return err
				}
				for _, row := range rows {
					t.add(row...)
				}
				differ = append(differ, bad...)
			}
		}
		if whole != nil {
			whole.Delete()
		}
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

// openDevice makes this rank's context on the device -device names.
// With "rank" it is LocalRank mod the node's devices (gpu.DeviceForRank);
// where EGL has no device platform the ranks share whatever NewHeadless
// finds.
func (d *distRun) openDevice(device string) (*gpu.Context, error) {
	local, err := mpi.LocalRank()
	d.local = local
	if err != nil {
		return nil, err
	}
	switch device {
	case "any":
		return gpu.NewHeadless()
	case "rank":
		devs, err := gpu.EGLDevices()
		if err != nil {
			return gpu.NewHeadless()
		}
		dev, err := gpu.DeviceForRank(devs, local)
		if err != nil {
			return nil, err
		}
		return gpu.NewHeadlessDevice(dev.Index)
	}
	i, _ := strconv.Atoi(device) // parse checked it
	return gpu.NewHeadlessDevice(i)
}

// devices is, at rank 0, a line per rank saying where it runs and on
// which device (an allgather: every rank calls it).
func (d *distRun) devices() ([]string, error) {
	host, _ := os.Hostname()
	cp := d.c.Caps()
	line := fmt.Sprintf("rank %d: node %s, local rank %d, %s: %s", d.rank, host, d.local, cp.Platform, cp.Renderer)
	send := make([]byte, errorBytes)
	copy(send[:errorBytes-1], line)
	recv := make([]byte, errorBytes*d.size)
	d.phase = "reporting the devices"
	d.check(mpi.AllgatherBytes(send, recv, d.wait()))
	lines := make([]string, d.size)
	for r := range lines {
		lines[r] = strings.TrimRight(string(recv[r*errorBytes:(r+1)*errorBytes]), "\x00")
	}
	return lines, nil
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
			m = d.bricks.static // this rank's first brick alone
		default:
			continue
		}
		b := distributed.Partition(m.Len(), d.size)
		part, err := share(d.c, m, b[d.rank], b[d.rank+1])
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

// share uploads triangles [lo, hi) of m.
func share(c *gpu.Context, m *mesh.Mesh, lo, hi int) (*mesh.GPU, error) {
	return mesh.Upload(c, &mesh.Mesh{Positions: m.Positions, Normals: m.Normals, Faces: m.Faces[lo:hi]})
}

// source is a set's units as the ranks split them, and how a rank makes
// its pieces of them on its GPU.
type source struct {
	split string // "triangles" or "bricks"
	unit  string
	units int
	// wire is the bytes that moving one unit to another node would send:
	// a triangle's three vertices (positions and normals), or a sample
	// layer of the volume.
	wire   int64
	upload func(lo, hi int) (*mesh.GPU, error)
	first  func(lo int) uint32 // the global id of unit lo's first triangle
	// Bricks: the volume's name, isovalue, surface's triangles, samples
	// and this rank's first brick's surface.
	name      string
	iso       float32
	triangles int
	samples   int
	static    *mesh.Mesh
}

// newSource makes the triangles split of m (a set of pair): shares of
// its triangles.
func (d *distRun) newSource(m *mesh.Mesh) *source {
	return &source{split: "triangles", unit: "triangle", units: m.Len(), wire: 3 * 2 * 12,
		upload: func(lo, hi int) (*mesh.GPU, error) { return share(d.c, m, lo, hi) },
		first:  func(lo int) uint32 { return uint32(lo) },
	}
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

// newBricks makes the bricks split of the balanced set: each rank makes
// only its first, static brick's samples (its cell layers' sample layers
// and one beyond each face), extracts its surface, and the ranks join
// the layers' triangle counts into global ids (LayerOffsets) and their
// bounds into the cameras'. It returns every rank's number of samples
// held.
func (d *distRun) newBricks(f *distFlags) (*source, []float64, error) {
	s, iso, err := f.brickSamples()
	layers := s.Dims[2] - 1
	if err == nil && layers < 1 {
		err = fmt.Errorf("bench distributed: %s: %d sample layers, no cell layer", s.Name, s.Dims[2])
	}
	if err := d.agree("reading the volume's header", err); err != nil {
		return nil, nil, err
	}
	b := distributed.Partition(layers, d.size)
	mine, err := s.Brick(b[d.rank], b[d.rank+1])
	var m *mesh.Mesh
	var counts []int
	if err == nil {
		m, counts, err = distributed.ExtractBrick(mine, iso)
	}
	if err != nil {
		// Every rank must reach LayerOffsets' allgather: count none.
		counts = nil
	}
	if err := d.agree("extracting the first bricks", err); err != nil {
		return nil, nil, err
	}
	d.phase = "joining the layers' triangle counts"
	offsets, err := distributed.LayerOffsets(d.comm, layers, b[d.rank], counts)
	if err != nil {
		return nil, nil, err
	}
	// The balanced set's bounds, the cameras' box: the minimum and
	// maximum of the bricks' (float32 in float64, exactly), or the
	// volume's box when no brick has a triangle, as dataset.New takes it.
	lo, hi, ok := m.Bounds()
	send := make([]float64, 7)
	for a := 0; a < 3; a++ {
		send[a], send[3+a] = float64(lo[a]), float64(hi[a])
	}
	send[6] = float64(len(mine.Samples.Data))
	all := make([]float64, 7*d.size)
	d.phase = "joining the bricks' bounds"
	d.check(d.comm.AllgatherFloat64(send, all))
	held := make([]float64, d.size)
	for r := 0; r < d.size; r++ {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], float32(all[7*r+a])), max(hi[a], float32(all[7*r+3+a]))
		}
		held[r] = all[7*r+6]
	}
	if ok = lo[0] <= hi[0]; !ok {
		v := mine.Samples
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = v.Origin[a], v.Origin[a]+float32(s.Dims[a]-1)*v.Spacing[a]
		}
	}
	err = nil
	switch {
	case d.pair == nil:
		d.lo, d.hi = lo, hi
	case offsets[layers] != d.pair.Balanced.Len():
		err = fmt.Errorf("bench distributed: the bricks hold %d triangles, the volume's surface %d", offsets[layers], d.pair.Balanced.Len())
	case lo != d.pair.Lo || hi != d.pair.Hi:
		err = fmt.Errorf("bench distributed: the bricks' bounds %v–%v, the volume's surface's %v–%v", lo, hi, d.pair.Lo, d.pair.Hi)
	}
	if err := d.agree("checking the bricks against the whole dataset", err); err != nil {
		return nil, nil, err
	}
	depth := s.Dims[2]
	return &source{split: "bricks", unit: "cell layer", units: layers, wire: int64(4 * s.Dims[0] * s.Dims[1]),
		name: s.Name, iso: iso, triangles: offsets[layers], samples: s.Dims[0] * s.Dims[1] * s.Dims[2], static: m,
		upload: func(lo, hi int) (*mesh.GPU, error) {
			// Cut from the rank's own slab where it holds the layers;
			// layers handed to it from a neighbour's brick are made anew
			// (sampled, or read from the file: across nodes they would
			// come from the neighbour).
			l := mine
			l.Z0, l.Z1 = lo, hi
			if a, e := isosurface.SlabSamples(depth, lo, hi); a < mine.First || e > mine.First+mine.Samples.Dims[2] {
				var err error
				if l, err = s.Brick(lo, hi); err != nil {
					return nil, err
				}
			}
			bm, _, err := distributed.ExtractBrick(l, iso)
			if err != nil {
				return nil, err
			}
			if bm.Len() != offsets[hi]-offsets[lo] {
				return nil, fmt.Errorf("bench distributed: cell layers [%d, %d) made %d triangles, the layer counts say %d", lo, hi, bm.Len(), offsets[hi]-offsets[lo])
			}
			return mesh.Upload(d.c, bm)
		},
		first: func(lo int) uint32 { return uint32(offsets[lo]) },
	}, held, nil
}

// fmtCounts is counts as whole numbers, space-separated.
func fmtCounts(counts []float64) string {
	s := make([]string, len(counts))
	for i, c := range counts {
		s[i] = strconv.FormatFloat(c, 'f', 0, 64)
	}
	return strings.Join(s, " ")
}

// pieceCache keeps a rank's pieces on its GPU from frame to frame; a
// piece not used in a frame is dropped after it.
type pieceCache struct {
	src  *source
	m    map[[2]int]*mesh.GPU
	used map[[2]int]bool
}

func (pc *pieceCache) get(a, b int) (*mesh.GPU, error) {
	k := [2]int{a, b}
	pc.used[k] = true
	if g := pc.m[k]; g != nil {
		return g, nil
	}
	g, err := pc.src.upload(a, b)
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

func (pc *pieceCache) delete() {
	clear(pc.used)
	pc.sweep()
}

// slabOf is the piece size: -slabs pieces a rank at the static partition.
func slabOf(units, ranks, slabs int) int {
	return max(1, (units+ranks*slabs-1)/(ranks*slabs))
}

// renderSet renders one split of a set at every view under one balancing
// policy, and returns the table rows and the image mismatches.
func (d *distRun) renderSet(f *distFlags, r *rasterizer.Renderer, src *source, whole *mesh.GPU, set int, pol distributed.Policy) (rows [][]string, differ []string, err error) {
	w, h := r.Options().Width, r.Options().Height
	bounds := distributed.Partition(src.units, d.size)
	lo, hi := bounds[d.rank], bounds[d.rank+1]
	slab := slabOf(src.units, d.size, f.slabs)
	pc := &pieceCache{src: src, m: map[[2]int]*mesh.GPU{}, used: map[[2]int]bool{}}
	defer pc.delete()
	// The first distribution, untimed; its cost per unit is the move cost.
	start := time.Now()
	for _, p := range distributed.Pieces(lo, hi, slab) {
		if _, err = pc.get(p[0], p[1]); err != nil {
			break
		}
	}
	secs := time.Since(start).Seconds()
	if err := d.agree("uploading the "+src.split, err); err != nil {
		return nil, nil, err
	}
	perUnit := []float64{secs / float64(max(1, hi-lo))}
	all := make([]float64, d.size)
	d.phase = "gathering the move costs"
	d.check(d.comm.AllgatherFloat64(perUnit, all))
	moveCost := slices.Max(all)
	bal := &distributed.Balancer{Policy: pol, MoveCost: moveCost}
	lrh := &distributed.Handoff{Comm: d.comm, Checkpoint: f.checkpoint, MoveCost: moveCost, Slab: slab}
	composited := make([]uint64, w*h)
	acc := make([]uint64, w*h)
	var shaded, pixels []uint32 // -resolve ranks: this rank's pixels, and at rank 0 all ranks'
	if f.resolve == "ranks" {
		shaded, pixels = make([]uint32, w*h), make([]uint32, w*h)
	}
	round := 0
	for vi, v := range f.viewList {
		cam := d.camera(v, w, h)
		var first float64
		handoffs, units := 0, 0
		var rankMs, compMs []float64
		same := true
		for frame := 0; frame < f.frames; frame++ {
			for i := range acc {
				acc[i] = rasterizer.EmptyVisibility
			}
			var renderErr error
			// A failed piece is remembered, not returned, so that the
			// handoff protocol still sends its one message and the ranks
			// learn of the failure together at the agreement below.
			piece := func(a, b int) error {
				if renderErr != nil {
					return nil
				}
				g, err := pc.get(a, b)
				if err == nil {
					_, err = r.Render(g, cam)
				}
				err = d.inject(f, err)
				if err != nil {
					renderErr = err
					return nil
				}
				words := r.Visibility()
				distributed.Globalize(words, src.first(a))
				for i, x := range words {
					acc[i] = min(acc[i], x)
				}
				return nil
			}
			start := time.Now()
			var st distributed.HandoffStats
			if pol == distributed.LeftRightHandoff {
				lo, hi, st, err = lrh.Frame(round, lo, hi, piece)
				round++
				if err != nil {
					d.phase = "the handoffs"
					d.check(err)
				}
			} else {
				for _, p := range distributed.Pieces(lo, hi, slab) {
					piece(p[0], p[1])
				}
			}
			err := renderErr
			rankTime := time.Since(start).Seconds()
			pc.sweep()
			if err := d.agree(fmt.Sprintf("rendering the %s set (%s) at %s", setNames[set], src.split, v.Name), err); err != nil {
				return nil, nil, err
			}
			d.phase = "compositing"
			start = time.Now()
			if f.resolve == "ranks" {
				// Every rank gets the composited words and shades the
				// pixels its own pieces won (those it rendered this
				// frame: the cache holds no other after the sweep); an
				// OR at rank 0 joins them.
				_, err = distributed.CompositeAll(d.comm, composited, acc)
				d.check(err)
				var mine []distributed.Piece
				for k, g := range pc.m {
					mine = append(mine, distributed.Piece{Mesh: g, First: src.first(k[0])})
				}
				err = distributed.ResolveShare(r, cam, composited, mine, d.rank == 0, shaded)
				if err := d.agree("resolving at every rank", err); err != nil {
					return nil, nil, err
				}
				d.phase = "joining the pixels"
				d.check(d.comm.ReduceOr(shaded, pick(d.rank == 0, pixels, nil), 0))
			} else {
				_, err = distributed.Composite(d.comm, pick(d.rank == 0, composited, nil), acc, 0)
				d.check(err)
			}
			compTime := time.Since(start).Seconds()
			gave := 0.0
			if st.Gave > 0 {
				gave = float64(st.Gave)
			}
			times := make([]float64, 3*d.size)
			d.phase = "gathering the times"
			d.check(d.comm.AllgatherFloat64([]float64{rankTime, compTime, gave}, times))
			rt, ct := make([]float64, d.size), 0.0
			for k := range rt {
				rt[k], ct = times[3*k], max(ct, times[3*k+1])
				if g := times[3*k+2]; g > 0 {
					handoffs++
					units += int(g)
				}
			}
			if frame == 0 {
				first = distributed.Imbalance(rt)
			}
			rankMs, compMs = rt, append(compMs, ct)
			if d.rank == 0 && !f.checkImage && f.resolve == "root" {
				if err := r.Resolve(whole, cam, composited); err != nil {
					return nil, nil, err
				}
			}
			if d.rank == 0 && f.checkImage {
				n, err := checkComposite(r, whole, cam, composited, pick(f.resolve == "ranks", pixels, nil))
				if err != nil {
					return nil, nil, err
				}
				if n > 0 {
					same = false
					differ = append(differ, fmt.Sprintf("%s set, %s, %v, %s, frame %d: %d pixels differ", setNames[set], src.split, pol, v.Name, frame, n))
				}
			}
			if pol != distributed.LeftRightHandoff {
				next, moved := bal.Next(bounds, rt)
				handoffs += moved
				for k := 1; k < d.size; k++ {
					units += max(next[k]-bounds[k], bounds[k]-next[k])
				}
				bounds = next
				lo, hi = bounds[d.rank], bounds[d.rank+1]
			}
		}
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
			setName, splitName, polName = setNames[set], src.split, pol.String()
		}
		rows = append(rows, []string{setName, splitName, polName, v.Name, strings.Join(ms, " "), fmt.Sprintf("%.2f", 1e3*compMs[len(compMs)/2]),
			fmt.Sprintf("%.2f→%.2f", first, distributed.Imbalance(rankMs)), fmt.Sprintf("%d (%d)", handoffs, units), check})
	}
	return rows, differ, nil
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

// checkComposite compares the composited words with rank 0's own frame
// of the whole mesh, then resolves them and compares the pixels: the
// number of pixels that differ.
// With pixels (-resolve ranks: the ranks' own resolves joined) those are
// compared instead of rank 0's resolve.
func checkComposite(r *rasterizer.Renderer, whole *mesh.GPU, cam view.Camera, composited []uint64, pixels []uint32) (int, error) {
	if _, err := r.Render(whole, cam); err != nil {
		return 0, fmt.Errorf("bench distributed: rank 0's single-process frame: %w", err)
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
