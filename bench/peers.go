package main

import (
	"bufio"
	_ "embed"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

func init() {
	commands["peers"] = command{runPeers, "extraction and decimation beside VTK's flying edges and meshoptimizer on the same volume and mesh, as ratios"}
}

//go:embed peers/flyingedges.py
var flyingEdgesPy []byte

//go:embed peers/meshopt.c
var meshoptC []byte

const peersHelp = "Times dpgl's isosurface extraction (isosurface.Extract) and decimation to 1/-reduction\n" +
	"(isosurface.Decimate) beside the tools users have, on the same volume and the same mesh:\n" +
	"vtkFlyingEdges3D (Debian's python3-vtk9, run with /usr/bin/python3) and meshopt_simplify\n" +
	"(Debian's libmeshoptimizer-dev, compiled with cc). Ours and the peer run alternately, -reps times\n" +
	"each, and the ratio of the medians is printed (below 1: ours is faster). A peer that is not installed\n" +
	"is named and skipped. With -png, it first times the way from the command to a PNG of -volume's\n" +
	"surface at full size: reading, extraction, upload and one 512x512 frame."

const defaultPeerVolume = "/usr/share/mricron/templates/ch2better.nii.gz"

type peersFlags struct {
	volume, out    string
	iso            float64
	res, reduction int
	reps           int
	png            bool
}

func runPeers(args []string, w io.Writer) error {
	start := time.Now()
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	f := &peersFlags{}
	fs.StringVar(&f.volume, "volume", defaultPeerVolume, "NIfTI volume to extract and decimate (\"\": none)")
	cliflag.Float(fs, &f.iso, "iso", 65, "isovalue of -volume", cliflag.Finite)
	cliflag.Int(fs, &f.res, "res", 256, "samples per axis of the perforator field, the second case (0: none)", 0, 1024)
	cliflag.Int(fs, &f.reduction, "reduction", 5, "decimate to 1/reduction of the triangles", 2, 1000)
	cliflag.Int(fs, &f.reps, "reps", 3, "alternating runs of ours and each peer (medians are compared)", 1, 100)
	fs.BoolVar(&f.png, "png", true, "time the command's way to a PNG of -volume's surface, first")
	fs.StringVar(&f.out, "out", "", "folder for the PNG (default: a temporary one, removed)")
	fs.Usage = usageFor(fs, "peers", peersHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "volume" })
	if _, err := os.Stat(f.volume); !given && err != nil {
		// The default volume comes with Debian's mricron-data; without
		// it the perforator alone is measured.
		fmt.Fprintf(w, "%s: not run (%v: apt-get install mricron-data)\n", filepath.Base(f.volume), err)
		f.volume = ""
	}
	if f.volume == "" && f.res == 0 {
		return fmt.Errorf("bench peers: %w", cliflag.Errorf("volume", "", "nothing to measure: give -volume or -res"))
	}
	if f.out != "" {
		if err := cliflag.CheckOutDir("out", f.out); err != nil {
			return fmt.Errorf("bench peers: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "dpgl-peers-")
	if err != nil {
		return fmt.Errorf("bench peers: %w", err)
	}
	defer os.RemoveAll(tmp)

	var v *volume.Volume
	if f.volume != "" {
		if v, _, err = volume.LoadNIfTI(f.volume); err != nil {
			return fmt.Errorf("bench peers: -volume %s: %w", f.volume, err)
		}
		if f.png {
			dir := f.out
			if dir == "" {
				dir = tmp
			} else if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("bench peers: -out %s: %w", dir, err)
			}
			if err := firstPNG(w, start, v, float32(f.iso), filepath.Join(dir, "surface.png")); err != nil {
				return err
			}
		}
	}
	meshopt, why := buildMeshopt(tmp)
	if meshopt == "" {
		fmt.Fprintf(w, "meshoptimizer: not run (%s)\n", why)
	}
	if v != nil {
		if err := comparePeers(w, tmp, filepath.Base(f.volume), v, float32(f.iso), meshopt, f); err != nil {
			return err
		}
	}
	if f.res > 0 {
		fl := volume.PerforatorJet()
		pv, err := fl.SampleGrid([3]int{f.res, f.res, f.res})
		if err != nil {
			return fmt.Errorf("bench peers: -res %d: %w", f.res, err)
		}
		if err := comparePeers(w, tmp, fmt.Sprintf("perforator %d^3", f.res), pv, fl.Iso, meshopt, f); err != nil {
			return err
		}
	}
	return nil
}

// firstPNG times the way from the command's start to a PNG of v's
// surface at iso: the volume already read (since start), extraction, a
// headless context, upload, one frame of the compute renderer at the
// paper's size and view (0,0), and the file written.
func firstPNG(w io.Writer, start time.Time, v *volume.Volume, iso float32, path string) error {
	// The time of each stage, from the end of the one before.
	var stages []string
	last := start
	stage := func(name string) {
		stages = append(stages, fmt.Sprintf("%s %s", name, fmtDur(time.Since(last))))
		last = time.Now()
	}
	stage("read")
	m, _, err := isosurface.Extract(v, iso)
	if err != nil {
		return fmt.Errorf("bench peers: -iso %v: %w", iso, err)
	}
	stage("extraction")
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	s, err := scan.New(c)
	if err != nil {
		return err
	}
	defer s.Delete()
	gm, err := mesh.Upload(c, m)
	if err != nil {
		return err
	}
	defer gm.Delete()
	stage("context and upload")
	// The tiled path: the same image as the two loops', the fastest.
	o := rasterizer.DefaultOptions()
	o.Tiled = true
	r, err := rasterizer.New(s, o)
	if err != nil {
		return err
	}
	defer r.Delete()
	lo, hi, ok := m.Bounds()
	if !ok {
		lo, hi = v.Bounds()
	}
	if _, err := r.Render(gm, view.Paper()[0].Fit(lo, hi, o.Width, o.Height)); err != nil {
		return err
	}
	img := r.Image()
	stage("frame")
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bench peers: -out: %w", err)
	}
	if err := rasterizer.WritePNG(out, img); err != nil {
		out.Close()
		return fmt.Errorf("bench peers: %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("bench peers: %s: %w", path, err)
	}
	stage("PNG")
	fmt.Fprintf(w, "command to first PNG: %s (%dx%dx%d volume, %d triangles, %dx%d image on %s): %s\n",
		fmtDur(time.Since(start)), v.Dims[0], v.Dims[1], v.Dims[2], m.Len(), o.Width, o.Height, c.Caps().Renderer, strings.Join(stages, ", "))
	return nil
}

// comparePeers extracts v at iso and decimates the surface, ours
// alternating with each peer present, and prints the medians and ratios.
func comparePeers(w io.Writer, tmp, name string, v *volume.Volume, iso float32, meshopt string, f *peersFlags) error {
	fmt.Fprintf(w, "%s (%dx%dx%d) at isovalue %g:\n", name, v.Dims[0], v.Dims[1], v.Dims[2], iso)
	raw := filepath.Join(tmp, "volume.raw")
	if err := writeRaw(raw, v); err != nil {
		return fmt.Errorf("bench peers: %w", err)
	}
	py := filepath.Join(tmp, "flyingedges.py")
	if err := os.WriteFile(py, flyingEdgesPy, 0o644); err != nil {
		return fmt.Errorf("bench peers: %w", err)
	}
	args := []string{py, raw, itoa(v.Dims[0]), itoa(v.Dims[1]), itoa(v.Dims[2])}
	for _, a := range [][3]float32{v.Spacing, v.Origin} {
		for _, x := range a {
			args = append(args, strconv.FormatFloat(float64(x), 'g', -1, 32))
		}
	}
	args = append(args, strconv.FormatFloat(float64(iso), 'g', -1, 32))
	var m *mesh.Mesh
	ours := func() (time.Duration, int, error) {
		t := time.Now()
		got, _, err := isosurface.Extract(v, iso)
		if err != nil {
			return 0, 0, err
		}
		m = got
		return time.Since(t), got.Len(), nil
	}
	if err := alternate(w, "extraction", "vtkFlyingEdges3D", exec.Command("/usr/bin/python3", args...), ours, f.reps); err != nil {
		return err
	}
	if m.Len() < f.reduction {
		fmt.Fprintf(w, "  decimation: %d triangles, nothing to decimate\n", m.Len())
		return nil
	}
	target := m.Len() / f.reduction
	meshFile := filepath.Join(tmp, "mesh.bin")
	if err := writeMeshBin(meshFile, m); err != nil {
		return fmt.Errorf("bench peers: %w", err)
	}
	var peer *exec.Cmd
	if meshopt != "" {
		peer = exec.Command(meshopt, meshFile, itoa(target))
	}
	dec := func() (time.Duration, int, error) {
		t := time.Now()
		d := isosurface.Decimate(m, isosurface.DecimateOptions{TargetFaces: target})
		return time.Since(t), d.Len(), nil
	}
	what := fmt.Sprintf("decimation of %d triangles to 1/%d", m.Len(), f.reduction)
	if err := alternate(w, what, "meshopt_simplify", peer, dec, f.reps); err != nil {
		return err
	}
	if !isosurface.Meshoptimizer() {
		return nil
	}
	// This build's Simplify calls meshoptimizer itself.
	simplify := func() (time.Duration, int, error) {
		t := time.Now()
		d := isosurface.Simplify(m, isosurface.DecimateOptions{TargetFaces: target})
		return time.Since(t), d.Len(), nil
	}
	if meshopt != "" {
		peer = exec.Command(meshopt, meshFile, itoa(target))
	}
	return alternate(w, "  the same by Simplify (-tags meshopt)", "meshopt_simplify", peer, simplify, f.reps)
}

// alternate runs ours and the peer (when cmd starts and says it is
// ready) reps times each, one after the other, and prints both medians
// and their ratio.
func alternate(w io.Writer, what, peerName string, cmd *exec.Cmd, ours func() (time.Duration, int, error), reps int) error {
	var p *peer
	if cmd != nil {
		var err error
		if p, err = startPeer(cmd); err != nil {
			fmt.Fprintf(w, "  %s: %s not run (%v)\n", what, peerName, err)
		} else {
			defer p.close()
		}
	}
	var ot, pt []time.Duration
	var on, pn int
	pr := newProgress("bench peers: "+what, 2*reps)
	defer pr.clear()
	for i := 0; i < reps; i++ {
		d, n, err := ours()
		if err != nil {
			return fmt.Errorf("bench peers: %s: %w", what, err)
		}
		ot, on = append(ot, d), n
		pr.step("ours")
		if p != nil {
			d, n, err := p.run()
			if err != nil {
				return fmt.Errorf("bench peers: %s: %s: %w", what, peerName, err)
			}
			pt, pn = append(pt, d), n
		}
		pr.step(peerName)
	}
	pr.clear()
	om := medianDur(ot)
	fmt.Fprintf(w, "  %-44s ours %9s (%d triangles)", what+":", fmtDur(om), on)
	if p != nil {
		pm := medianDur(pt)
		verdict := "within 2x"
		if float64(om) > 2*float64(pm) {
			verdict = "NOT within 2x"
		}
		fmt.Fprintf(w, "   %s %9s (%d triangles)   ours/peer %.2f, %s", peerName, fmtDur(pm), pn, float64(om)/float64(pm), verdict)
	}
	fmt.Fprintln(w)
	return nil
}

func medianDur(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// peer is a peer program that answers each "run" line with "seconds
// triangles".
type peer struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr strings.Builder
}

func startPeer(cmd *exec.Cmd) (*peer, error) {
	p := &peer{cmd: cmd}
	var err error
	if p.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = &p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.out = bufio.NewScanner(stdout)
	if !p.out.Scan() || !strings.HasPrefix(p.out.Text(), "ready") {
		p.close()
		return nil, errors.New(lastLine(p.stderr.String()))
	}
	return p, nil
}

func (p *peer) run() (time.Duration, int, error) {
	if _, err := io.WriteString(p.in, "run\n"); err != nil {
		return 0, 0, err
	}
	if !p.out.Scan() {
		return 0, 0, fmt.Errorf("no answer: %s", lastLine(p.stderr.String()))
	}
	var secs float64
	var n int
	if _, err := fmt.Sscanf(p.out.Text(), "%g %d", &secs, &n); err != nil {
		return 0, 0, fmt.Errorf("answer %q: %w", p.out.Text(), err)
	}
	return time.Duration(secs * 1e9), n, nil
}

func (p *peer) close() {
	p.in.Close()
	p.cmd.Wait()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if l := lines[len(lines)-1]; l != "" {
		return l
	}
	return "it said nothing"
}

// buildMeshopt compiles the meshoptimizer peer into dir, or says why not.
func buildMeshopt(dir string) (path, why string) {
	const header = "/usr/include/meshoptimizer.h"
	if _, err := os.Stat(header); err != nil {
		return "", "no " + header + ": apt-get install libmeshoptimizer-dev"
	}
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", "no C compiler (cc)"
	}
	src := filepath.Join(dir, "meshopt.c")
	if err := os.WriteFile(src, meshoptC, 0o644); err != nil {
		return "", err.Error()
	}
	path = filepath.Join(dir, "meshopt")
	if out, err := exec.Command(cc, "-O2", "-o", path, src, "-lmeshoptimizer").CombinedOutput(); err != nil {
		return "", fmt.Sprintf("cc: %v: %s", err, lastLine(string(out)))
	}
	return path, ""
}

// writeRaw writes v's samples as little-endian float32, x fastest.
func writeRaw(path string, v *volume.Volume) error {
	b := make([]byte, 4*len(v.Data))
	for i, s := range v.Data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(s))
	}
	return os.WriteFile(path, b, 0o644)
}

// writeMeshBin writes m as meshopt.c reads it: vertex and face counts,
// positions, then vertex ids, little-endian.
func writeMeshBin(path string, m *mesh.Mesh) error {
	b := make([]byte, 0, 8+12*len(m.Positions)+12*len(m.Faces))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Positions)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Faces)))
	for _, p := range m.Positions {
		for _, x := range p {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	for _, f := range m.Faces {
		for _, i := range f {
			b = binary.LittleEndian.AppendUint32(b, i)
		}
	}
	return os.WriteFile(path, b, 0o644)
}

func itoa(n int) string { return strconv.Itoa(n) }
