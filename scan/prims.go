package scan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dpgl/dpgl/gpu"
)

// primScratch is the state of the primitives built on the scans
// (histogram, select, partition, transform, unique, run-length encoding,
// reduce-by-key, segmented reduce, load-balancing search): their programs
// and their per-element scratch arrays, grown on demand and reused like
// the scans' own.
type primScratch struct {
	progs map[string]*gpu.Program // by file and defines
	words [numScratch]*gpu.Buffer[uint32]

	// HistogramRange's table as texels (histogram.go's histTexels), and
	// whether the driver refused to make one.
	texels   *gpu.TexelBuffer
	noTexels bool

	// Tests: the histogram's path (histAuto: chosen from the bins and the
	// driver).
	histPath int
}

// The per-element scratch arrays; a primitive names the ones it uses.
const (
	scratchFlags = iota // chunks' head flags, 0 or 1 (and counts); the range histogram's table
	scratchPos          // chunks' open ops, carried by a segmented scan
	scratchEnds         // chunks' head bits (runs.comp, segreduce.comp)
	scratchCount        // one word: a count the GPU keeps
	numScratch
)

func (p *primScratch) delete() {
	for i, b := range p.words {
		b.Delete()
		p.words[i] = nil
	}
	p.texels.Delete()
	p.texels = nil
}

// scratch returns n words of scratch array k. It must run on the GL
// thread.
func (s *Scanner) scratch(fn string, k, n int) gpu.Range[uint32] {
	return s.grow(fn, &s.prim.words[k], max(n, 1)).Slice(0, n)
}

// primProgram returns the kernel file built with defines (plus WG_SIZE),
// building it on first use. The module's own kernels are linted and
// tested, so failing to build one is a bug and panics; user expressions
// go through userProgram instead. It must run on the GL thread.
func (s *Scanner) primProgram(file string, defines map[string]string) *gpu.Program {
	p, err := s.primProgramErr(file, defines)
	if err != nil {
		panic(err)
	}
	return p
}

func (s *Scanner) primProgramErr(file string, defines map[string]string) (*gpu.Program, error) {
	d := map[string]string{"WG_SIZE": strconv.Itoa(s.primGroup)}
	for k, v := range defines {
		d[k] = v
	}
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var key strings.Builder
	key.WriteString(file)
	for _, k := range keys {
		fmt.Fprintf(&key, "\x00%s=%s", k, d[k])
	}
	if p := s.prim.progs[key.String()]; p != nil {
		return p, nil
	}
	p, err := s.c.Program(file, d)
	if err != nil {
		return nil, err
	}
	if s.prim.progs == nil {
		s.prim.progs = map[string]*gpu.Program{}
	}
	s.prim.progs[key.String()] = p
	return p, nil
}

// checkExpr returns an error unless expr can be a GLSL expression in a
// #define: one line, not empty. What it means is the driver's to judge.
func checkExpr(fn, what, expr string) error {
	if strings.TrimSpace(expr) == "" {
		return fmt.Errorf("scan: %s: the %s is empty", fn, what)
	}
	if strings.ContainsAny(expr, "\n\r\\") {
		return fmt.Errorf("scan: %s: the %s %q spans lines (or has a backslash): it must be one GLSL expression on one line", fn, what, expr)
	}
	return nil
}

// userProgram builds a kernel around a user's GLSL expression, turning a
// build failure into an error that names the expression and carries the
// driver's log.
func (s *Scanner) userProgram(fn, what, expr, file string, defines map[string]string) (*gpu.Program, error) {
	p, err := s.primProgramErr(file, defines)
	if err != nil {
		return nil, fmt.Errorf("scan: %s: the %s %q does not compile: %w", fn, what, expr, err)
	}
	return p, nil
}

// typeName is the GLSL name of T.
func typeName[T Elem]() string {
	return [...]string{"uint", "int", "float"}[typeOf[T]()]
}

// mapItems is the ITEMS of the elementwise kernels (transform.comp): 16-byte vectors per invocation, strided by the group
// size as in the copy kernel, so an invocation handles 4*mapItems
// elements (Program.DispatchItems).
const mapItems = 4
