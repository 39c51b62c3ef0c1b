package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/bench/internal/experiment"
	"github.com/dpgl/dpgl/internal/fileio"
	"github.com/dpgl/dpgl/rasterizer"
)

func nsDur(n int64) time.Duration { return time.Duration(n) }

// writeFile writes data to the batch's file name and records the name.
// The batch's files appear together when it commits (fileio.Batch), so a
// run that fails leaves its results folder as it found it.
func writeFile(out *fileio.Batch, name string, data []byte, files *[]string) error {
	if err := out.Write(name, data); err != nil {
		return fmt.Errorf("bench: writing results: %w", err)
	}
	*files = append(*files, name)
	return nil
}

func csvBytes(header []string, rows [][]string) []byte {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write(header)
	cw.WriteAll(rows) // flushes; a bytes.Buffer does not fail
	return b.Bytes()
}

func fnum(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// imageName is the file of a set's image at a view.
func imageName(set, view string) string { return fmt.Sprintf("image-%s-%s.png", set, slug(view)) }

// writePNG encodes packed RGBA8 pixels (bottom row first) as a PNG.
func writePNG(out *fileio.Batch, name string, pixels []uint32, w, h int, files *[]string) error {
	var b bytes.Buffer
	if err := rasterizer.WritePNG(&b, rasterizer.ToImage(pixels, w, h)); err != nil {
		return err
	}
	return writeFile(out, name, b.Bytes(), files)
}

// writeResults writes the report to the results folder: one PNG per set
// and view, the plots, the CSV tables, paper.md and paper.json (which lists
// them all, itself included). It returns the files' names. The files
// appear together, replacing a previous run's, only once all are written:
// a failure (a full disk, a plot that cannot be drawn) leaves the folder
// as it was.
func writeResults(dir string, r *experiment.Report) (files []string, err error) {
	out, err := fileio.NewBatch(dir)
	if err != nil {
		return nil, fmt.Errorf("bench: -out %s: %w", dir, err)
	}
	defer func() {
		if err == nil {
			err = out.Commit()
		}
		if err != nil {
			out.Abort()
			files = nil
		}
	}()
	// Images first, so that paper.md and paper.json can list them.
	for set := range setNames {
		for _, v := range r.Views() {
			if err := writePNG(out, imageName(setNames[set], v.Name), r.Image(set, v.Name), r.Params.Width, r.Params.Height, &files); err != nil {
				return files, err
			}
		}
	}
	plots, notes, err := writePlots(out, r)
	files = append(files, plots...)
	if err != nil {
		return files, err
	}
	r.Warnings = append(r.Warnings, notes...)
	for _, t := range csvTables(r) {
		if err := writeFile(out, t.name, csvBytes(t.header, t.rows), &files); err != nil {
			return files, err
		}
	}
	if err := writeFile(out, "paper.md", paperMarkdown(r, files), &files); err != nil {
		return files, err
	}
	r.Files = append(append([]string(nil), files...), "paper.json")
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return files, fmt.Errorf("bench: encoding paper.json: %w", err)
	}
	if err := writeFile(out, "paper.json", append(js, '\n'), &files); err != nil {
		return files, err
	}
	return files, nil
}

// csvTable is one CSV file of the results.
type csvTable struct {
	name   string
	header []string
	rows   [][]string
}

func csvTables(r *experiment.Report) []csvTable {
	var t1 [][]string
	for _, row := range r.Table1 {
		t1 = append(t1, []string{row.Set, row.View, fmt.Sprint(row.ScanMax), fnum(row.ScanAvg), fmt.Sprint(row.ZMax), fnum(row.ZAvg),
			strconv.Itoa(row.ScanProcessors), strconv.Itoa(row.ZProcessors)})
	}
	out := []csvTable{{"table1.csv", []string{"set", "view", "scan_max", "scan_avg", "zbuffer_max", "zbuffer_avg", "scan_processors", "zbuffer_processors"}, t1}}
	for i, name := range []string{"table2.csv", "table3.csv"} {
		out = append(out, framesCSV(name, setNames[i], r.Frames))
	}
	return append(out, table4CSV(r), costsCSV(r))
}

var frameHeader = []string{"set", "view", "lanes", "policy", "renderer", "gpu_ms_median", "gpu_ms_min", "gpu_ms_max", "wall_ms_median", "spread", "reps", "speedup_over_or",
	"scan_lanes", "scan_processors", "scan_iterations", "scan_balances", "scan_gathers", "scan_counts", "scan_savings",
	"zbuffer_lanes", "zbuffer_processors", "zbuffer_iterations", "zbuffer_passes", "zbuffer_balances", "zbuffer_gathers", "zbuffer_counts", "zbuffer_savings",
	"setup_ms", "scan_ms", "zbuffer_ms", "shading_ms", "same_image"}

// framesCSV is Table 2 or 3, every frame of a set.
func framesCSV(name, set string, frames []experiment.FrameRow) csvTable {
	var rows [][]string
	for _, fr := range frames {
		if fr.Set != set {
			continue
		}
		rows = append(rows, []string{fr.Set, fr.View, fr.Lanes, fr.Policy, fr.Renderer, fnum(fr.GPUMs), fnum(fr.GPUMinMs), fnum(fr.GPUMaxMs), fnum(fr.WallMs),
			fnum(fr.Spread), strconv.Itoa(fr.Reps), fnum(fr.SpeedupOR),
			strconv.Itoa(fr.Scan.Lanes), strconv.Itoa(fr.Scan.Processors), strconv.Itoa(fr.Scan.Iterations), strconv.Itoa(fr.Scan.Balances),
			strconv.Itoa(fr.Scan.Gathers), strconv.Itoa(fr.Scan.Counts), strconv.FormatUint(fr.Scan.Savings, 10),
			strconv.Itoa(fr.Z.Lanes), strconv.Itoa(fr.Z.Processors), strconv.Itoa(fr.Z.Iterations), strconv.Itoa(fr.Z.Passes), strconv.Itoa(fr.Z.Balances),
			strconv.Itoa(fr.Z.Gathers), strconv.Itoa(fr.Z.Counts), strconv.FormatUint(fr.Z.Savings, 10),
			fnum(fr.StagesMs[0]), fnum(fr.StagesMs[1]), fnum(fr.StagesMs[2]), fnum(fr.StagesMs[3]), strconv.FormatBool(fr.SameImage)})
	}
	return csvTable{name, frameHeader, rows}
}

// table4CSV is Table 4, a row per loop and phase; the z-buffer's id pass,
// where there is one, is the loop "zbuffer id pass".
func table4CSV(r *experiment.Report) csvTable {
	var rows [][]string
	add := func(loop, phase string, p experiment.Phase) {
		rows = append(rows, []string{loop, phase, strconv.Itoa(p.N), fnum(p.MinMs), fnum(p.MaxMs), fnum(p.AvgMs)})
	}
	for _, l := range r.Table4.Loops {
		add(l.Loop, "gather", l.Gather)
		add(l.Loop, "redistribute", l.Redistribute)
		add(l.Loop, "solve", l.Solve)
	}
	if ids := r.Table4.IDPassSolve; ids != nil {
		add("zbuffer id pass", "solve", *ids)
	}
	return csvTable{"table4.csv", []string{"loop", "phase", "n", "min_ms", "max_ms", "avg_ms"}, rows}
}

func costsCSV(r *experiment.Report) csvTable {
	var rows [][]string
	for i, cc := range r.CostCheck {
		d := r.Costs[i].Detail
		rows = append(rows, []string{cc.Loop, fnum(cc.Cost), fnum(cc.Paper), r.Costs[i].Source, fnum(cc.MaxCost), cc.At, strconv.FormatBool(cc.Exceeded),
			strconv.Itoa(cc.Over), strconv.Itoa(cc.Gathered), fnum(ms(nsDur(d.MaxGatherNs))), fnum(ms(nsDur(d.MaxRedistributeNs))), fnum(ms(nsDur(d.MinSolveNs))), fnum(d.Margin), d.Date,
			fnum(cc.DatasetCost), cc.DatasetAt, strconv.Itoa(cc.DatasetsOver), strconv.Itoa(cc.Datasets)})
	}
	return csvTable{"costs.csv", []string{"loop", "cost_iterations", "paper_cost", "source", "max_measured_cost", "at", "exceeded",
		"frames_over", "frames_gathered", "cal_max_gather_ms", "cal_max_redistribute_ms", "cal_min_solve_ms", "cal_margin", "cal_date",
		"max_dataset_cost", "dataset_at", "datasets_over", "datasets_gathered"}, rows}
}

// paperMarkdown is paper.md: the run's setting, the tables, the warnings,
// and the images and plots among files.
func paperMarkdown(r *experiment.Report, files []string) []byte {
	var md bytes.Buffer
	fmt.Fprintf(&md, "# The paper's experiment on %s\n\n", r.Meta.Renderer)
	fmt.Fprintf(&md, "`%s` — %s, %s, %s.\n\n", r.Meta.Command, r.Meta.Driver, r.Meta.Vendor, r.Meta.Date)
	fmt.Fprintf(&md, "Dataset: %s. Image %dx%d; lanes %s; %d repetitions (median) after %d warm-up; visibility %s.\n\n",
		r.Dataset, r.Params.Width, r.Params.Height, strings.Join(r.Params.Lanes, ", "), r.Params.Reps, r.Params.Warmup, r.Params.Visibility)
	if len(r.Meta.Reduced) > 0 {
		fmt.Fprintf(&md, "Reduced for a software renderer: %s.\n\n", strings.Join(r.Meta.Reduced, ", "))
	}
	for _, n := range r.CostNotes {
		fmt.Fprintf(&md, "%s.\n\n", n)
	}
	for _, t := range reportTables(r) {
		t.writeMarkdown(&md)
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(&md, "### Balancer warnings\n\n")
		for _, m := range r.Warnings {
			fmt.Fprintf(&md, "- %s\n", m)
		}
		fmt.Fprintln(&md)
	}
	fmt.Fprintf(&md, "### Images and plots\n\n")
	for _, name := range files {
		if filepath.Ext(name) == ".png" {
			fmt.Fprintf(&md, "![%s](%s)\n", name, name)
		}
	}
	return md.Bytes()
}
