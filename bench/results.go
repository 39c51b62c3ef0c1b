package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
)

func init() {
	commands["results"] = command{runResults, "run the main measurements of this machine and write them as Markdown (bench/RESULTS.md), stamped with the machine, GL renderer, commit and date"}
}

// resultsSection is one measurement of bench results: a command of
// bench's own run in-process, its output kept as it printed it.
type resultsSection struct {
	title string
	// about says what the section shows and against which peer.
	about string
	args  []string
	// quick are the arguments of -quick (a test's smoke run); nil leaves
	// the section out there.
	quick []string
}

// resultsSections are the measurements RESULTS.md holds, most wanted
// first. Every speed is a ratio to a peer timed in the same run.
func resultsSections(out string) []resultsSection {
	return []resultsSection{
		{title: "The paper's experiment", about: "Tables 1–4 and the second experiment on the embedded perforator dataset: the original renderer (OR), the load-balanced one (LB) and Bounded, the headline figures beside the paper's (`bench paper`, the defaults for this renderer).",
			args:  []string{"paper", "-out", filepath.Join(out, "paper")},
			quick: []string{"paper", "-out", filepath.Join(out, "paper"), "-calibration", filepath.Join(out, "cal.json"), "-res", "16", "-width", "48", "-height", "48", "-lanes", "all", "-views", "(0,0)", "-reps", "1", "-second=false"}},
		{title: "The renderer against the GL pipeline", about: "Frame times of each policy and of the tiled path beside the driver's own vertex/fragment pipeline drawing the same triangles, same run (`bench render -res 128 -width 512 -height 512 -reps 3`).",
			args:  []string{"render", "-res", "128", "-width", "512", "-height", "512", "-reps", "3", "-out", filepath.Join(out, "render")},
			quick: []string{"render", "-calibration", filepath.Join(out, "cal.json"), "-res", "16", "-width", "48", "-height", "48", "-reps", "1", "-views", "(0,0)", "-out", filepath.Join(out, "render")}},
		{title: "Scans", about: "Exclusive add-scan and segmented copy on each path, against the copy kernel (`bench scan -log2 20,24`).",
			args:  []string{"scan", "-log2", "20,24"},
			quick: []string{"scan", "-log2", "10"}},
		{title: "Sort", about: "The radix sort on both paths, against the copy kernel and `slices.Sort` of the same keys (`bench sort -log2 20,24`).",
			args:  []string{"sort", "-log2", "20,24"},
			quick: []string{"sort", "-log2", "10"}},
		{title: "Primitives", about: "Every other primitive against the copy kernel and a plain Go loop (`bench primitives -log2 24`).",
			args:  []string{"primitives", "-log2", "24"},
			quick: []string{"primitives", "-log2", "10"}},
	}
}

func runResults(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("results", flag.ContinueOnError)
	out := fs.String("out", filepath.Join("bench", "RESULTS.md"), "the Markdown file to write (replaced only once every measurement ran)")
	quick := fs.Bool("quick", false, "tiny sizes, for a smoke test of the command itself: the figures mean nothing")
	fs.Usage = usageFor(fs, "results", "Runs the main measurements (the paper's experiment, the renderer beside the GL pipeline, scans, sort,\n"+
		"primitives) and writes their output as Markdown, stamped with the CPU, the GL renderer, the commit and\n"+
		"the date. The file in the repository is the last such run. Takes several minutes on a CPU driver.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := cliflag.CheckOutDir("out", filepath.Dir(*out)); err != nil {
		return fmt.Errorf("bench results: %w", err)
	}
	if fi, err := os.Stat(*out); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("bench results: -out %s: not a regular file", *out)
	}
	scratch, err := os.MkdirTemp("", "dpgl-results")
	if err != nil {
		return fmt.Errorf("bench results: %w", err)
	}
	defer os.RemoveAll(scratch)

	var doc bytes.Buffer
	if err := resultsHeader(&doc, *quick); err != nil {
		return err
	}
	for _, s := range resultsSections(scratch) {
		a := s.args
		if *quick {
			if a = s.quick; a == nil {
				continue
			}
		}
		fmt.Fprintf(w, "bench results: %s (bench %s)\n", s.title, strings.Join(a, " "))
		var buf bytes.Buffer
		start := time.Now()
		if err := run(a, &buf); err != nil {
			return fmt.Errorf("bench results: %s (bench %s): %w", s.title, strings.Join(a, " "), err)
		}
		fmt.Fprintf(&doc, "## %s\n\n%s Took %.0f s.\n\n```\n%s```\n\n", s.title, s.about, time.Since(start).Seconds(), strings.ReplaceAll(buf.String(), "```", "'''"))
	}
	if err := writeFileAtomic(*out, doc.Bytes()); err != nil {
		return fmt.Errorf("bench results: %w", err)
	}
	fmt.Fprintf(w, "bench results: wrote %s\n", *out)
	return nil
}

// resultsHeader stamps the document with what the figures depend on.
func resultsHeader(w io.Writer, quick bool) error {
	c, err := gpu.NewHeadless()
	if err != nil {
		return fmt.Errorf("bench results: %w", err)
	}
	defer c.Delete()
	cp := c.Caps()
	fmt.Fprintf(w, "# dpgl: measured results\n\n")
	fmt.Fprintf(w, "Written by `go run ./bench results`%s; every figure below comes from that one run. Speeds are ratios to a peer timed in the same run: absolute times of the same build differ by 2x between virtual machines of one kind.\n\n",
		map[bool]string{true: " -quick (tiny sizes: the figures mean nothing)", false: ""}[quick])
	fmt.Fprintf(w, "| | |\n| --- | --- |\n")
	fmt.Fprintf(w, "| date | %s |\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(w, "| CPU | %s, %d logical CPUs |\n", cpuModel(), runtime.NumCPU())
	fmt.Fprintf(w, "| GL | %s; OpenGL %s via %s |\n", cp.Renderer, cp.Version, cp.Platform)
	fmt.Fprintf(w, "| Go | %s %s/%s |\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "| commit | %s |\n", commitOf())
	if l := loadAverage(); l != "" {
		fmt.Fprintf(w, "| load average at the start | %s |\n", l)
	}
	fmt.Fprintln(w)
	return nil
}

// cpuModel is the CPU's model name from /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// commitOf is the build's VCS revision, or the work tree's HEAD for go run.
func commitOf() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if dirty {
				rev += " (with local changes)"
			}
			return rev
		}
	}
	if b, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		return strings.TrimSpace(string(b))
	}
	return "unknown"
}

// loadAverage is /proc/loadavg's three averages: a busy machine's figures
// are noisier.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// writeFileAtomic writes b to path through a temporary file in the same
// folder, synced, then renamed over path: a reader (or a full disk) never
// sees a partial file under path's name.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
