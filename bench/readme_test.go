package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dpgl/dpgl/gpu/gputest"
)

// readmeBlock is a fenced block of the README and the paragraph before it.
type readmeBlock struct {
	lang, text, before string
	line               int
}

func readmeBlocks(t *testing.T) (string, []readmeBlock) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var blocks []readmeBlock
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		lang := strings.TrimPrefix(lines[i], "```")
		start := i
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
			j++
		}
		k := start - 1
		for k >= 0 && strings.TrimSpace(lines[k]) == "" {
			k--
		}
		p := k
		for p >= 0 && strings.TrimSpace(lines[p]) != "" {
			p--
		}
		blocks = append(blocks, readmeBlock{lang: lang, text: strings.Join(lines[start+1:j], "\n"), before: strings.Join(lines[p+1:k+1], " "), line: start + 1})
		i = j
	}
	return doc, blocks
}

// TestReadmeForUsers: the README is for users: at most 450 lines, no
// development log (rounds, what was tried) and no dated measurements,
// which belong in the packages' TUNING.md and in bench/RESULTS.md.
func TestReadmeForUsers(t *testing.T) {
	doc, _ := readmeBlocks(t)
	if n := strings.Count(doc, "\n"); n > 450 {
		t.Errorf("README.md has %d lines, want at most 450", n)
	}
	for _, re := range []string{`(?i)\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth)\s+round`, `(?i)tried and (not landed|no faster|slower)`, `\b20\d\d-\d\d-\d\d\b`, `(?i)\bissue \d+`} {
		if m := regexp.MustCompile(re).FindString(doc); m != "" {
			t.Errorf("README.md holds %q (%s): history and dated figures go to TUNING.md and RESULTS.md", m, re)
		}
	}
}

// exampleName matches the runnable example a README snippet says it
// comes from, as "`Example_quickStart`".
var exampleName = regexp.MustCompile("`(Example[A-Za-z0-9_]*)`")

// codeLine is a snippet's line as compared: trimmed, a trailing comment
// dropped.
func codeLine(s string) string {
	// A // outside a string literal: an even number of quotes before it.
	for i := strings.Index(s, "//"); i >= 0; {
		if strings.Count(s[:i], `"`)%2 == 0 {
			s = s[:i]
			break
		}
		j := strings.Index(s[i+2:], "//")
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return strings.TrimSpace(s)
}

// TestReadmeGoFromExamples: every Go snippet of the README names the
// runnable Example it comes from, and each of its statements is in that
// example's source (a line of it, or a part of a line, as a call the
// example makes inside an if), so that what go test runs is what the
// README shows.
func TestReadmeGoFromExamples(t *testing.T) {
	_, blocks := readmeBlocks(t)
	examples := map[string]string{} // name → source, over the module's test files
	root := ".."
	fset := token.NewFileSet()
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return nil
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && strings.HasPrefix(fn.Name.Name, "Example") {
				key := filepath.Dir(path) + "." + fn.Name.Name
				examples[key] = string(src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset])
			}
		}
		return nil
	})
	checked := 0
	for _, b := range blocks {
		if b.lang != "go" {
			continue
		}
		m := exampleName.FindStringSubmatch(b.before)
		if m == nil {
			t.Errorf("README.md:%d: a Go snippet that names no Example it comes from (\"`Example…`\" in the paragraph before it)", b.line)
			continue
		}
		var srcs []string
		for k, s := range examples {
			if strings.HasSuffix(k, "."+m[1]) {
				srcs = append(srcs, s)
			}
		}
		if len(srcs) == 0 {
			t.Errorf("README.md:%d: no %s in the module's tests", b.line, m[1])
			continue
		}
		for _, l := range strings.Split(b.text, "\n") {
			l = codeLine(l)
			switch {
			case l == "", l == "}", l == ")", l == "package main", l == "import (", l == "func main() {",
				strings.HasPrefix(l, `"`), strings.HasPrefix(l, "log.Fatal"):
				continue // a program's frame around the example's body
			}
			found := false
			for _, s := range srcs {
				for _, sl := range strings.Split(s, "\n") {
					if strings.Contains(codeLine(sl), l) {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("README.md:%d: %q is not in %s", b.line, l, m[1])
			}
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("checked %d Go snippets of the README, want at least 3", checked)
	}
}

// shellWords splits a command line as sh would for plain words and
// single or double quotes, dropping a trailing # comment.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	in, quote, started := false, byte(0), false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, started = c, true
		case c == '#' && !in:
			i = len(line)
		case c == ' ' || c == '\t':
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
			in = false
		default:
			cur.WriteByte(c)
			started, in = true, true
		}
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}

// readmeOther are the README's shell commands that this test does not
// run, and why.
var readmeOther = map[string]string{
	"make":              "make run and make test are CI's own run; make bench-mpi and gpu-binaries are the MPI and GPU legs",
	"go get":            "fetches the module",
	"export":            "sets a user's environment",
	"mpirun":            "make test-mpi runs bench distributed under mpirun",
	"xvfb-run":          "the viewer's scripted runs are viewer's tests (make test-window)",
	".gl/bench":         "the GPU machine's binary",
	"node01":            "a hostfile",
	"#":                 "a comment",
	"mpirun --hostfile": "a cluster",
}

// TestReadmeCommands runs every `go run ./bench …` command of the
// README's shell blocks as shown (bench as this test binary), in a
// scratch folder, and checks that it succeeds; every other shell line
// must be one this test knows it leaves to another leg of make test.
func TestReadmeCommands(t *testing.T) {
	gputest.Context(t)
	_, blocks := readmeBlocks(t)
	dir := t.TempDir()
	ran := 0
	for _, b := range blocks {
		if b.lang != "" && b.lang != "sh" {
			continue
		}
		for _, line := range strings.Split(b.text, "\n") {
			w := shellWords(line)
			if len(w) == 0 {
				continue
			}
			if len(w) < 3 || w[0] != "go" || w[1] != "run" || w[2] != "./bench" {
				known := false
				for k := range readmeOther {
					if strings.HasPrefix(strings.TrimSpace(line), k) {
						known = true
					}
				}
				if !known && !strings.Contains(b.before, "hostfile") && !strings.HasPrefix(strings.TrimSpace(line), "node") && !strings.HasPrefix(strings.TrimSpace(line), "...") {
					t.Errorf("README.md:%d: %q: a command this test neither runs nor knows (add it to readmeOther with the reason)", b.line, line)
				}
				continue
			}
			args := w[3:]
			start := time.Now()
			out, err := runBenchChild(dir, 5*time.Minute, args...)
			if err != nil {
				t.Errorf("README.md:%d: go run ./bench %s: %v\n%s", b.line, strings.Join(args, " "), err, out)
				continue
			}
			t.Logf("go run ./bench %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
			ran++
		}
	}
	if ran < 3 {
		t.Fatalf("ran %d bench commands of the README, want at least 3", ran)
	}
}

// runBenchChild runs bench (this test binary) with args in dir.
func runBenchChild(dir string, limit time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	exe, err := filepath.Abs(os.Args[0])
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DPGL_BENCH_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.String(), fmt.Errorf("still running after %v", limit)
	}
	return out.String(), err
}
