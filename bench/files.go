package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/rasterizer"
)

func nsDur(n int64) time.Duration { return time.Duration(n) }

// writeFile writes data to dir/name and records the name.
func writeFile(dir, name string, data []byte, files *[]string) error {
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
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
func writePNG(dir, name string, pixels []uint32, w, h int, files *[]string) error {
	var b bytes.Buffer
	if err := rasterizer.WritePNG(&b, rasterizer.ToImage(pixels, w, h)); err != nil {
		return err
	}
	return writeFile(dir, name, b.Bytes(), files)
}

// writeFiles writes the report to the results folder: paper.md, the CSV
// tables, paper.json, one PNG per set and view, and the plots.
func (p *paperRun) writeFiles(r *paperReport) ([]string, error) {
	dir := p.f.out
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: -out %s: %w", dir, err)
	}
	var files []string

	// Images first, so that paper.md and paper.json can list them.
	for set := range setNames {
		for _, v := range p.f.viewList {
			if err := writePNG(dir, imageName(setNames[set], v.Name), p.ic.pixels(set, v.Name), p.e.w, p.e.h, &files); err != nil {
				return files, err
			}
		}
	}
	plots, err := p.writePlots(dir)
	files = append(files, plots...)
	if err != nil {
		return files, err
	}

	// CSV.
	var t1 [][]string
	for _, row := range r.Table1 {
		t1 = append(t1, []string{row.Set, row.View, fmt.Sprint(row.ScanMax), fnum(row.ScanAvg), fmt.Sprint(row.ZMax), fnum(row.ZAvg),
			strconv.Itoa(row.ScanProcessors), strconv.Itoa(row.ZProcessors)})
	}
	if err := writeFile(dir, "table1.csv", csvBytes([]string{"set", "view", "scan_max", "scan_avg", "zbuffer_max", "zbuffer_avg", "scan_processors", "zbuffer_processors"}, t1), &files); err != nil {
		return files, err
	}
	frameHeader := []string{"set", "view", "lanes", "policy", "renderer", "gpu_ms_median", "gpu_ms_min", "gpu_ms_max", "wall_ms_median", "spread", "reps", "speedup_over_or",
		"scan_lanes", "scan_processors", "scan_iterations", "scan_balances", "scan_gathers", "scan_counts", "scan_savings",
		"zbuffer_lanes", "zbuffer_processors", "zbuffer_iterations", "zbuffer_passes", "zbuffer_balances", "zbuffer_gathers", "zbuffer_counts", "zbuffer_savings",
		"setup_ms", "scan_ms", "zbuffer_ms", "shading_ms", "same_image"}
	for i, name := range []string{"table2.csv", "table3.csv"} {
		var rows [][]string
		for _, fr := range r.Frames {
			if fr.Set != setNames[i] {
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
		if err := writeFile(dir, name, csvBytes(frameHeader, rows), &files); err != nil {
			return files, err
		}
	}
	var t4 [][]string
	for _, l := range r.Table4.Loops {
		for _, ph := range []struct {
			name string
			p    phaseJSON
		}{{"gather", l.Gather}, {"redistribute", l.Redistribute}, {"solve", l.Solve}} {
			t4 = append(t4, []string{l.Loop, ph.name, strconv.Itoa(ph.p.N), fnum(ph.p.MinMs), fnum(ph.p.MaxMs), fnum(ph.p.AvgMs)})
		}
	}
	if err := writeFile(dir, "table4.csv", csvBytes([]string{"loop", "phase", "n", "min_ms", "max_ms", "avg_ms"}, t4), &files); err != nil {
		return files, err
	}
	var cr [][]string
	for i, cc := range r.CostCheck {
		d := r.Costs[i].Detail
		cr = append(cr, []string{cc.Loop, fnum(cc.Cost), fnum(cc.Paper), r.Costs[i].Source, fnum(cc.MaxCost), cc.At, strconv.FormatBool(cc.Exceeded),
			strconv.Itoa(cc.Over), strconv.Itoa(cc.Gathered), fnum(ms(nsDur(d.MaxGatherNs))), fnum(ms(nsDur(d.MaxRedistributeNs))), fnum(ms(nsDur(d.MinSolveNs))), fnum(d.Margin), d.Date})
	}
	if err := writeFile(dir, "costs.csv", csvBytes([]string{"loop", "cost_iterations", "paper_cost", "source", "max_measured_cost", "at", "exceeded",
		"frames_over", "frames_gathered", "cal_max_gather_ms", "cal_max_redistribute_ms", "cal_min_solve_ms", "cal_margin", "cal_date"}, cr), &files); err != nil {
		return files, err
	}

	// Markdown, then JSON (which lists every file, itself included).
	var md bytes.Buffer
	fmt.Fprintf(&md, "# The paper's experiment on %s\n\n", r.Meta.Renderer)
	fmt.Fprintf(&md, "`%s` — %s, %s, %s.\n\n", r.Meta.Command, r.Meta.Driver, r.Meta.Vendor, r.Meta.Date)
	fmt.Fprintf(&md, "Dataset: %s. Image %dx%d; lanes %s; %d repetitions (median) after %d warm-up; visibility %s.\n\n",
		p.e.describe(), r.Params.Width, r.Params.Height, strings.Join(r.Params.Lanes, ", "), r.Params.Reps, r.Params.Warmup, r.Params.Visibility)
	if len(r.Meta.Reduced) > 0 {
		fmt.Fprintf(&md, "Reduced for a software renderer: %s.\n\n", strings.Join(r.Meta.Reduced, ", "))
	}
	for _, n := range r.CostNotes {
		fmt.Fprintf(&md, "%s.\n\n", n)
	}
	for _, t := range r.tables {
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
	if err := writeFile(dir, "paper.md", md.Bytes(), &files); err != nil {
		return files, err
	}
	r.Files = append(append([]string(nil), files...), "paper.json")
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return files, fmt.Errorf("bench: encoding paper.json: %w", err)
	}
	if err := writeFile(dir, "paper.json", append(js, '\n'), &files); err != nil {
		return files, err
	}
	return files, nil
}
