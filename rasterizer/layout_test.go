package rasterizer

import (
	"io/fs"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/shaders"
)

// glslDefines returns the integer #defines of an embedded shader file whose
// names start with prefix.
func glslDefines(t *testing.T, file, prefix string) map[string]int {
	t.Helper()
	src, err := fs.ReadFile(shaders.FS, file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s*#define\s+(` + prefix + `\w*)\s+(\d+)\b`)
	out := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		v, _ := strconv.Atoi(m[2])
		if _, dup := out[m[1]]; dup {
			t.Fatalf("%s defines %s twice", file, m[1])
		}
		out[m[1]] = v
	}
	return out
}

// goBindings are the Go binding constants by their GLSL names.
var goBindings = map[string]int{
	"BINDING_WORKLOAD":       bindingWorkload,
	"BINDING_PARALLEL_INDEX": bindingParallelIndex,
	"BINDING_PROBLEM":        bindingProblem,
	"BINDING_TRIS":           bindingTris,
	"BINDING_SPANS":          bindingSpans,
	"BINDING_VISIBILITY":     bindingVisibility,
	"BINDING_PRIMS":          bindingPrims,
	"BINDING_WINNER":         bindingWinner,
	"BINDING_ROWS":           bindingRows,
	"BINDING_SPAN_BASE":      bindingSpanBase,
	"BINDING_POSITIONS":      bindingPositions,
	"BINDING_NORMALS":        bindingNormals,
	"BINDING_SETUP_COUNTS":   bindingSetupCounts,
	"BINDING_SETUP_STATS":    bindingSetupStats,
	"BINDING_IMAGE":          bindingImage,
	"BINDING_TILE_COUNT":     bindingTileCount,
	"BINDING_TILE_START":     bindingTileStart,
	"BINDING_TILE_LIST":      bindingTileList,
	"BINDING_TILE_PREPS":     bindingTilePreps,
	"BINDING_TILE_COUNTER":   bindingTileCounter,
	"BINDING_Z_KEYS":         bindingZKeys,
	"BINDING_TILE_BINS":      bindingTileBins,
	"BINDING_SHADE_RECORDS":  bindingShadeRecs,
}

// TestBindingsMatchGLSL: every binding point of layout.glsl has a Go
// constant of the same number and vice versa, no two buffers share a
// number, the balancer's processor arrays sit where loop.glsl declares them,
// and the strategies' binding is left free.
func TestBindingsMatchGLSL(t *testing.T) {
	glsl := glslDefines(t, "rasterizer/layout.glsl", "BINDING_")
	if len(glsl) != len(goBindings) {
		t.Errorf("layout.glsl defines %d bindings, layout.go %d", len(glsl), len(goBindings))
	}
	seen := map[int]string{}
	for name, v := range glsl {
		g, ok := goBindings[name]
		if !ok {
			t.Errorf("layout.glsl defines %s %d, which has no Go constant", name, v)
		} else if g != v {
			t.Errorf("%s is %d in layout.glsl, %d in layout.go", name, v, g)
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%s and %s share binding %d", name, other, v)
		}
		seen[v] = name
		if v < 0 || v >= numBindings {
			t.Errorf("%s = %d: outside the %d binding points the renderer asks for", name, v, numBindings)
		}
	}
	// The points are 0..numBindings-1 but for the strategies' one.
	if _, taken := seen[balancer.BindingStrategy]; taken || numBindings != len(goBindings)+1 || balancer.BindingStrategy >= numBindings {
		t.Errorf("numBindings %d: %d bindings and binding %d, the balancer's strategies', should leave no gap", numBindings, len(goBindings), balancer.BindingStrategy)
	}
	for name, want := range map[string]int{"BINDING_WORKLOAD": balancer.BindingWorkload, "BINDING_PARALLEL_INDEX": balancer.BindingParallelIndex, "BINDING_PROBLEM": balancer.BindingProblem} {
		if glsl[name] != want {
			t.Errorf("%s is %d, the balancer's is %d", name, glsl[name], want)
		}
	}
}

// TestPrepareStepsMatchGLSL: prepare.comp's step names have the numbers of
// Go's prepareStep constants.
func TestPrepareStepsMatchGLSL(t *testing.T) {
	glsl := glslDefines(t, "rasterizer/prepare.comp", "")
	for s := prepareStep(0); s < numPrepareSteps; s++ {
		v, ok := glsl[s.String()]
		if !ok || v != int(s) {
			t.Errorf("prepare step %s is %d in Go; prepare.comp defines it %v (%d)", s, int(s), ok, v)
		}
	}
}

// blockBinding names the Go binding of every storage block the renderer's
// kernels declare, by block name.
var blockBinding = map[string]int{
	"Positions": bindingPositions, "Normals": bindingNormals,
	"Counts": bindingSetupCounts, "Stats": bindingSetupStats,
	"Tris": bindingTris, "Rows": bindingRows, "SpanBase": bindingSpanBase, "Spans": bindingSpans, "Slots": bindingTriSlots, "Slots4": bindingTriSlots,
	"Workload": bindingWorkload, "BalancerWorkload": bindingWorkload,
	"ParallelIndex": bindingParallelIndex, "BalancerParallelIndex": bindingParallelIndex,
	"Problem": bindingProblem, "BalancerProblems": bindingProblem,
	"Vis": bindingVisibility, "Depth": bindingVisibility, "Prim": bindingPrims, "Prims": bindingPrims,
	"Winner": bindingWinner, "Image": bindingImage,
	"TileCount": bindingTileCount, "TileStart": bindingTileStart, "List": bindingTileList,
	"Preps": bindingTilePreps, "Counter": bindingTileCounter, "ZKeys": bindingZKeys, "ZKeyPairs": bindingZKeys, "WinnerPairs": bindingWinner, "Bins": bindingTileBins,
	"ShadeRecords": bindingShadeRecs,
	// prepare.comp's views of four elements a uvec4
	"Workload4": bindingWorkload, "ParallelIndex4": bindingParallelIndex, "Problem4": bindingProblem,
	"Rows4": bindingRows, "SpanBase4": bindingSpanBase, "Spans4": bindingSpans,
	"Depth4": bindingVisibility, "Prim4": bindingPrims, "Winner4": bindingWinner, "Vis4": bindingVisibility, "Image4": bindingImage, "Prims4": bindingPrims,
}

// rendererPrograms returns every kernel a renderer built, by name.
func rendererPrograms(r *Renderer) []*gpu.Program {
	ps := []*gpu.Program{r.setup.count[0], r.setup.count[1], r.setup.emit, r.setup.countClip[0], r.setup.countClip[1], r.setup.emitClip, r.scanSol, r.resolve.prog[0][0], r.resolve.prog[0][1], r.resolve.prog[1][0], r.resolve.prog[1][1]}
	ps = append(ps, r.resolve.merging[:]...)
	for _, z := range r.zSol {
		ps = append(ps, z[:]...)
	}
	ps = append(ps, r.prepare.prog[:]...)
	if r.tiled != nil {
		ps = append(ps, r.tiled.setup[0], r.tiled.setup[1], r.tiled.clip[0], r.tiled.clip[1], r.tiled.culled[0], r.tiled.culled[1], r.tiled.listing, r.tiled.emit, r.tiled.boxes, r.tiled.cull)
		for _, p := range r.tiled.tileKernels {
			ps = append(ps, p)
		}
	}
	out := ps[:0]
	for _, p := range ps {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// visibilityRenderers makes a renderer on each visibility path this
// driver can run (the 32-bit one, and the 64-bit one, emulated where the
// driver lacks 64-bit atomics), so that every kernel variant is built,
// the tiled path's too.
func visibilityRenderers(t *testing.T, c *gpu.Context) []*Renderer {
	s := newScanner(t, c)
	var out []*Renderer
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		o := DefaultOptions()
		o.Width, o.Height, o.Visibility32 = 8, 8, vis32
		// The resolve kernel that reads storage blocks (the tiled
		// path's kernels read buffer textures where the driver allows).
		test.storageBlockInputs = true
		r, err := newRenderer(s, o, test)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(r.Delete)
		// The tiled path's kernels, made when first used, now.
		if r.tiled, err = newTiledStage(c, r.vis64, testOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := r.tiled.variants(false); err != nil {
			t.Fatal(err)
		}
		if _, _, err := r.setup.counting(false); err != nil {
			t.Fatal(err)
		}
		for _, v := range [][3]bool{{false, false, false}, {false, true, false}, {true, false, false}, {true, true, false}, {false, true, true}, {true, true, true}} {
			if _, err := r.resolve.program(v[0], v[1], v[2]); err != nil {
				t.Fatal(err)
			}
		}
		// The z-buffer loop's kernels of this path, made when first used.
		kernels := []zKernel{zDepth}
		if !r.vis64 {
			kernels = append(kernels, zIDs, zKeys)
		}
		for _, k := range kernels {
			for _, exact := range []bool{false, true} {
				if _, err := r.zProgram(k, exact); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, v := range []tileVariant{{}, {wholeRows: true}, {shade: true}, {shade: true, records: true}, {shade: true, wholeRows: true}, {shade: true, records: true, wholeRows: true}} {
			for _, large := range []bool{false, true} {
				v.large = large
				if _, err := r.tiled.tileKernel(v); err != nil {
					t.Fatal(err)
				}
			}
		}
		out = append(out, r)
	})
	return out
}

// TestBindingsMatchDriver: in every kernel of the renderer, on each
// visibility path, and in HardwareRenderer's vertex shader, each storage
// block sits at the binding point the Go
// side binds its buffer at, as the driver reports it.
func TestBindingsMatchDriver(t *testing.T) {
	c := gputest.Context(t)
	hw, err := NewHardwareRenderer(c, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer hw.Delete()
	checked := map[string]bool{}
	for _, r := range visibilityRenderers(t, c) {
		for _, p := range append(rendererPrograms(r), hw.prog) {
			for _, b := range p.StorageBlocks() {
				want, ok := blockBinding[b.Name]
				if !ok {
					t.Errorf("%s: storage block %s (binding %d) has no Go binding in this test's table", p.Name(), b.Name, b.Binding)
					continue
				}
				if b.Binding != want {
					t.Errorf("%s: storage block %s is at binding %d, the Go side binds it at %d", p.Name(), b.Name, b.Binding, want)
				}
				checked[b.Name] = true
			}
		}
	}
	for name := range blockBinding {
		// Winner is the emulated 64-bit path's alone, which a driver with
		// 64-bit atomics (zink) never builds.
		if name == "Winner" && c.Caps().Atomic64 {
			continue
		}
		if !checked[name] {
			t.Errorf("no kernel has an active storage block %s: the table or the kernels are out of date", name)
		}
	}
}

// record is a GLSL struct in a storage block and its Go twin: member names
// map to the Go field at the member's start.
type record struct {
	prog    func(*Renderer) *gpu.Program // a kernel that uses every member
	block   string                       // its storage block holding an array of the struct
	goType  reflect.Type
	members map[string]string
}

var records = []record{
	{func(r *Renderer) *gpu.Program { return r.setup.emit }, "Tris", reflect.TypeFor[gpuTri](), map[string]string{"v01": "X0", "v2a": "X2", "z": "Z0", "rows": "YLo"}},
	{func(r *Renderer) *gpu.Program { return r.prepare.prog[spanProblems] }, "Spans", reflect.TypeFor[span](), map[string]string{"y": "Y", "x0": "X0", "x1": "X1", "tri": "Tri"}},
	{func(r *Renderer) *gpu.Program { return r.prepare.prog[scanProblems] }, "Problem", reflect.TypeFor[scanProblem](), map[string]string{"tri": "Tri", "spanBase": "SpanBase"}},
}

// words is a storage block that holds a GLSL struct's words as an array of
// vectors (layout.glsl: the loops' kernels read and write spans and scan
// problems so), and the Go twin of the struct: a vector an element.
type words struct {
	prog   func(*Renderer) *gpu.Program
	block  string
	goType reflect.Type
}

var wordViews = []words{
	{func(r *Renderer) *gpu.Program { return r.scanSol }, "Spans", reflect.TypeFor[span]()},
	{func(r *Renderer) *gpu.Program { return r.scanSol }, "BalancerProblems", reflect.TypeFor[scanProblem]()},
	{func(r *Renderer) *gpu.Program { return r.zSol[1][zKeys] }, "Spans", reflect.TypeFor[span]()},
	{func(r *Renderer) *gpu.Program { return r.prepare.prog[spanProblems] }, "Spans4", reflect.TypeFor[span]()},
}

// TestWordViewsMatchDriver: where a kernel declares a struct's buffer as an
// array of vectors, the array is the only variable of its block and its
// stride is the Go twin's size.
func TestWordViewsMatchDriver(t *testing.T) {
	c := gputest.Context(t)
	r := visibilityRenderers(t, c)[0]
	for _, w := range wordViews {
		p := w.prog(r)
		found := false
		for _, b := range p.StorageBlocks() {
			if b.Name != w.block {
				continue
			}
			found = true
			if len(b.Vars) != 1 || !strings.HasSuffix(b.Vars[0].Name, "[0]") {
				t.Errorf("%s: block %s holds %v, not one array of vectors", p.Name(), b.Name, b.Vars)
				continue
			}
			// An array of vectors is its own top-level array: ArrayStride
			// is its stride.
			if v := b.Vars[0]; v.ArrayStride != int(w.goType.Size()) || v.Offset != 0 {
				t.Errorf("%s: %s: stride %d bytes at offset %d, Go %v has %d", p.Name(), v.Name, v.ArrayStride, v.Offset, w.goType, w.goType.Size())
			}
		}
		if !found {
			t.Errorf("%s has no active storage block %s holding %v", p.Name(), w.block, w.goType)
		}
	}
}

// TestRecordsMatchDriver compares the Go twins of the renderer's GLSL
// structs (set-up triangles, spans, the scan-conversion loop's problems)
// with the driver's std430 layout: the array stride is the Go size, and
// every member starts at its Go field's offset.
func TestRecordsMatchDriver(t *testing.T) {
	c := gputest.Context(t)
	r := visibilityRenderers(t, c)[0]
	for _, rec := range records {
		p := rec.prog(r)
		found := false
		for _, b := range p.StorageBlocks() {
			if b.Name == rec.block {
				checkRecord(t, p.Name(), b, rec)
				found = true
			}
		}
		if !found {
			t.Errorf("%s has no active storage block %s holding %v", p.Name(), rec.block, rec.goType)
		}
	}
}

func checkRecord(t *testing.T, prog string, b gpu.StorageBlock, rec record) {
	t.Helper()
	seen := map[string]bool{}
	for _, v := range b.Vars {
		// "tris[0].v2a": the member of the array's first element.
		i := strings.Index(v.Name, "[0].")
		if i < 0 {
			t.Errorf("%s: block %s: variable %s is not a member of an array of structs", prog, b.Name, v.Name)
			continue
		}
		member := v.Name[i+len("[0]."):]
		if v.TopLevelArrayStride != int(rec.goType.Size()) {
			t.Errorf("%s: %s: std430 stride %d bytes, Go %v has %d", prog, v.Name, v.TopLevelArrayStride, rec.goType, rec.goType.Size())
		}
		field, ok := rec.members[member]
		if !ok {
			t.Errorf("%s: %s: no Go field of %v is named for member %s", prog, v.Name, rec.goType, member)
			continue
		}
		f, _ := rec.goType.FieldByName(field)
		if v.Offset != int(f.Offset) {
			t.Errorf("%s: %s at offset %d, Go %v.%s at %d", prog, v.Name, v.Offset, rec.goType, field, f.Offset)
		}
		seen[member] = true
	}
	for m := range rec.members {
		if !seen[m] {
			t.Errorf("%s: block %s: the driver lists no member %s (%v.%s)", prog, b.Name, m, rec.goType, rec.members[m])
		}
	}
}
