package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer/dataset"
	"github.com/dpgl/dpgl/rasterizer/distributed"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/rasterizer/workload"
)

func init() {
	commands["distributed-predict"] = command{runDistributedPredict, "on paper, no MPI or GL: what N ranks of bench distributed would do (imbalance of the static, cost-effective and handoff partitions from the dataset's workloads; compositing bytes and messages)"}
}

// runDistributedPredict predicts bench distributed at rank counts no
// machine here has, from the dataset itself: each triangle's work is its
// setup, its scanlines and its pixels (the iterations of the paper's two
// loops, workload.Each), a share's the sum of its triangles'.
func runDistributedPredict(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("distributed-predict", flag.ContinueOnError)
	f := &expFlags{cmd: "distributed-predict", fs: fs, lanes: "all", policies: "CostEffective", calPath: "-", commonFlags: &commonFlags{reps: 1}}
	var ranks string
	var frames int
	fs.StringVar(&f.field, "field", volume.Default().Name, "built-in field to sample: "+strings.Join(fieldNames(), ", "))
	fs.StringVar(&f.volume, "volume", "", "a NIfTI-1 volume (.nii or .nii.gz) instead of a built-in field")
	cliflag.Int(fs, &f.res, "res", dataset.DefaultResolution, "grid size per axis (a volume is resampled to it when larger; 0: as it is)", 0, math.MaxInt)
	cliflag.Float(fs, &f.iso, "iso", 0, "isovalue (default: the field's own; for -volume the middle of its range)", cliflag.Float32)
	cliflag.Int(fs, &f.reduction, "reduction", dataset.DefaultReduction, "the unbalanced set is the balanced set decimated to 1/reduction of its triangles", 1, math.MaxInt)
	cliflag.Int(fs, &f.width, "width", 512, "image width in pixels", 1, raster.MaxImageSize)
	cliflag.Int(fs, &f.height, "height", 512, "image height in pixels", 1, raster.MaxImageSize)
	fs.StringVar(&f.views, "views", "all", "views, separated by commas (or semicolons or spaces) outside parentheses: "+view.Usage+`, or "all" for the paper's four`)
	fs.StringVar(&ranks, "ranks", "4,16,64", "rank counts, comma-separated")
	cliflag.Int(fs, &frames, "frames", 20, "frames CostEffective balances over", 1, maxReps)
	fs.Usage = usageFor(fs, "distributed-predict", "Predicts bench distributed on N ranks without running them: each triangle's work is 1 + its scanlines + its pixels\n"+
		"(the paper's two loops), a rank's the sum over its share. Prints, per view and split, the imbalance (slowest/mean) of the\n"+
		"static partition and of CostEffective's after -frames frames, the rounds Left-Right Handoff needs at least (a pair\n"+
		"evens out its predicted times, so a boundary moves at most about half a share in a round, and races every other round:\n"+
		"4 x the most work, in shares, that must cross one boundary), and the compositing traffic per rank.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return err
	}
	var ns []int
	for _, s := range strings.Split(ranks, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 1<<20 {
			return f.errorf("ranks", ranks, "want rank counts from 1 to %d, comma-separated", 1<<20)
		}
		ns = append(ns, n)
	}
	pair, err := f.makeDataset()
	if err != nil {
		return err
	}
	v := pair.Volume
	fmt.Fprintf(w, "dataset: %s at isovalue %g: balanced %d triangles, unbalanced %d; image %dx%d\n", pair.Name, pair.Iso, pair.Balanced.Len(), pair.Unbalanced.Len(), f.width, f.height)
	// Each cell layer's triangle count: the bricks' units.
	var layerTris []int
	if v != nil {
		_, layerTris, err = distributed.ExtractBrick(isosurface.Slab(v, 0, v.Dims[2]-1), pair.Iso)
		if err != nil {
			return fmt.Errorf("bench distributed-predict: %w", err)
		}
		fmt.Fprintf(w, "bricks: %d cell layers of %dx%d cells\n", len(layerTris), v.Dims[0]-1, v.Dims[1]-1)
	}
	t := predictTable(pair, f, ns, frames, layerTris)
	fmt.Fprintln(w)
	t.writeText(w)
	fmt.Fprintf(w, "  static: slowest/mean work of the equal partition (units: triangles, or cell layers for bricks); CE: CostEffective's after %d frames\n"+
		"  (its model: a share's work spread evenly over its units); LRH rounds: the least number of frames Left-Right Handoff needs to get there\n", frames)
	fmt.Fprintln(w)
	writeTraffic(w, f.width, f.height, ns)
	return nil
}

// predictTable is the imbalance table: per view, set and split, each rank
// count's static and CostEffective imbalance and Left-Right Handoff's
// least rounds.
func predictTable(pair *dataset.Pair, f *expFlags, ns []int, frames int, layerTris []int) *resultTable {
	t := &resultTable{header: []string{"view", "set", "split"}, left: 3}
	for _, n := range ns {
		t.header = append(t.header, fmt.Sprintf("%d ranks: static  CE  LRH rounds", n))
	}
	for _, vw := range f.viewList {
		mvp := pair.Camera(vw, f.width, f.height).MVP()
		bal, _ := pair.Balanced.Soup()
		unb, _ := pair.Unbalanced.Soup()
		cb, cu := triangleWork(bal, mvp, f.width, f.height), triangleWork(unb, mvp, f.width, f.height)
		rows := []struct {
			set, split string
			costs      []float64
		}{{"balanced", "triangles", cb}, {"unbalanced", "triangles", cu}}
		if layerTris != nil {
			perLayer := make([]float64, len(layerTris))
			i := 0
			for z, k := range layerTris {
				for _, c := range cb[i : i+k] {
					perLayer[z] += c
				}
				i += k
			}
			rows = append(rows, struct {
				set, split string
				costs      []float64
			}{"balanced", "bricks", perLayer})
		}
		for k, r := range rows {
			name := ""
			if k == 0 {
				name = vw.Name
			}
			cells := []string{name, r.set, r.split}
			for _, n := range ns {
				p := predictShares(r.costs, n, frames)
				cells = append(cells, fmt.Sprintf("%.2f  %.2f  ≥%d", p.static, p.costEffective, p.rounds))
			}
			t.add(cells...)
		}
	}
	return t
}

// writeTraffic prints the compositing and balancing traffic per rank.
func writeTraffic(w io.Writer, width, height int, ns []int) {
	ct := &resultTable{header: []string{"ranks", "image KiB", "reduce-scatter KiB sent a rank", "messages (halving | ring)", "gather KiB a rank", "into rank 0", "LRH messages a frame", "CE allgather B a rank"}, left: 0}
	img := int64(8 * width * height)
	for _, n := range ns {
		block := (img/8 + int64(n) - 1) / int64(n) * 8
		rs := block * int64(n-1) // a ring or recursive halving sends (N−1)/N of the image
		ct.add(strconv.Itoa(n), fmt.Sprint(img>>10), fmt.Sprintf("%.1f", float64(rs)/1024), fmt.Sprintf("%d | %d", int(math.Ceil(math.Log2(float64(n)))), n-1),
			fmt.Sprintf("%.1f", float64(block)/1024), fmt.Sprintf("%d messages", n-1), fmt.Sprintf("%d of 32 B", 2*(n/2)), fmt.Sprint(24*n))
	}
	ct.writeText(w)
	fmt.Fprintf(w, "  compositing: MIN reduce-scatter of the 64-bit visibility words, then a gather of the blocks at rank 0; LRH: each pair's signal and reply;\n"+
		"  CE: every rank's three times (render, composite, handoff) each frame\n")
}

// triangleWork is each triangle's work: 1 (its setup) + its scanlines +
// its pixels.
func triangleWork(pos [][3]float32, mvp [16]float32, w, h int) []float64 {
	c := make([]float64, len(pos)/3)
	workload.Each(pos, mvp, w, h, func(tri, rows int, span func(k int) int) {
		c[tri] = 1 + float64(rows)
		for k := 0; k < rows; k++ {
			c[tri] += float64(span(k))
		}
	})
	return c
}

type sharePrediction struct {
	static, costEffective float64
	rounds                int
}

// predictShares is the imbalance of n equal shares of units costing costs,
// of CostEffective's shares after frames frames, and the rounds Left-Right
// Handoff needs at least: a pair evens out its predicted times, so the
// giver hands off at most half its remaining work, about half a share,
// and each boundary races every other round: 4 × the most work, in
// shares, that must cross one boundary of the equal partition.
func predictShares(costs []float64, n, frames int) sharePrediction {
	times := func(b []int) []float64 {
		t := make([]float64, n)
		for r := range t {
			for _, c := range costs[b[r]:b[r+1]] {
				t[r] += c
			}
		}
		return t
	}
	b := distributed.Partition(len(costs), n)
	static := times(b)
	total := 0.0
	for _, t := range static {
		total += t
	}
	mean := total / float64(n)
	cross, acc := 0.0, 0.0
	for k := 1; k < n && mean > 0; k++ {
		acc += static[k-1]
		cross = max(cross, math.Abs(acc-float64(k)*mean)/mean)
	}
	bal := &distributed.Balancer{Policy: distributed.CostEffective}
	for range frames {
		b, _ = bal.Next(b, times(b))
	}
	return sharePrediction{
		static:        distributed.Imbalance(static),
		costEffective: distributed.Imbalance(times(b)),
		rounds:        int(math.Ceil(4 * cross)),
	}
}
