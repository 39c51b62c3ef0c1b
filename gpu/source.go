package gpu

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Source is a GLSL source expanded for the driver: defines inserted after
// #version in sorted order, #include directives spliced in with #line
// directives so that the driver's line numbers point into the original files.
//
// Included file k is numbered from line k*LineBase+1, and also given source
// string number k: some drivers (Mesa) lose the source string number of
// errors inside functions but keep the line, so the line alone must say the
// file. MapLog undoes both.
type Source struct {
	Text  string   // what the driver compiles
	Files []string // source-string numbers: Files[0] is the main file, then the includes in order
}

var (
	includeRe = regexp.MustCompile(`^\s*#\s*include\s+"([^"]+)"\s*(//.*)?$`)
	versionRe = regexp.MustCompile(`^\s*#\s*version\s`)
	defineKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Expand reads name from fsys and expands it. Includes are looked up relative
// to the including file, then from the root of fsys; each file is included
// once (include guards are implied). defines become "#define KEY VALUE" lines
// right after #version, sorted by key so that the same program always has
// the same text.
func Expand(fsys fs.FS, name string, defines map[string]string) (*Source, error) {
	keys := make([]string, 0, len(defines))
	for k := range defines {
		if !defineKey.MatchString(k) {
			return nil, fmt.Errorf("gpu: %s: define %q is not an identifier", name, k)
		}
		if strings.ContainsAny(defines[k], "\n\r") {
			return nil, fmt.Errorf("gpu: %s: define %s has a newline in its value", name, k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e := &expander{fsys: fsys, seen: map[string]bool{name: true}}
	main, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("gpu: shader %s: %v", e.fileName(name), err)
	}
	lines := strings.Split(string(main), "\n")
	v := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if versionRe.MatchString(l) {
			v = i
			break
		}
		if t != "" && !strings.HasPrefix(t, "//") {
			break
		}
	}
	if v < 0 {
		return nil, fmt.Errorf("gpu: %s: the first statement must be #version", e.fileName(name))
	}
	e.src.Files = []string{e.fileName(name)}
	var b strings.Builder
	for _, l := range lines[:v+1] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, k := range keys {
		fmt.Fprintf(&b, "#define %s %s\n", k, defines[k])
	}
	fmt.Fprintf(&b, "#line %d 0\n", v+2)
	if err := e.body(&b, name, 0, lines[v+1:], v+2); err != nil {
		return nil, err
	}
	e.src.Text = b.String()
	return &e.src, nil
}

// LineBase separates the line numbers of included files (see Source).
const LineBase = 100000

type expander struct {
	fsys fs.FS
	seen map[string]bool
	src  Source
}

// body writes lines of file (source-string number id) whose first line is
// line number first.
func (e *expander) body(b *strings.Builder, file string, id int, lines []string, first int) error {
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	for i, l := range lines {
		if versionRe.MatchString(l) {
			return fmt.Errorf("gpu: %s:%d: #version inside an included file", e.fileName(file), first+i)
		}
		m := includeRe.FindStringSubmatch(l)
		if m == nil {
			if strings.Contains(l, "#include") && strings.HasPrefix(strings.TrimSpace(l), "#") {
				return fmt.Errorf("gpu: %s:%d: malformed #include (want #include \"file\")", e.fileName(file), first+i)
			}
			b.WriteString(l)
			b.WriteByte('\n')
			continue
		}
		inc, data, err := e.open(path.Dir(file), m[1])
		if err != nil {
			return fmt.Errorf("gpu: %s:%d: #include %q: %v", e.fileName(file), first+i, m[1], err)
		}
		// The directive's own line stays as an empty line so that the lines
		// after the include keep their numbers.
		if e.seen[inc] {
			b.WriteByte('\n')
			continue
		}
		e.seen[inc] = true
		incID := len(e.src.Files)
		e.src.Files = append(e.src.Files, e.fileName(inc))
		fmt.Fprintf(b, "#line %d %d\n", incID*LineBase+1, incID)
		if err := e.body(b, inc, incID, strings.Split(string(data), "\n"), 1); err != nil {
			return err
		}
		fmt.Fprintf(b, "#line %d %d\n", id*LineBase+first+i+1, id)
	}
	return nil
}

// fileName is how messages name file: trees layered over dpgl's (WithShaders)
// say which layer it came from.
func (e *expander) fileName(file string) string {
	if n, ok := e.fsys.(interface{ fileName(string) string }); ok {
		return n.fileName(file)
	}
	return file
}

// open finds an include relative to dir, then from the root.
func (e *expander) open(dir, name string) (string, []byte, error) {
	cands := []string{path.Join(dir, name), path.Clean(name)}
	for _, c := range cands {
		if data, err := fs.ReadFile(e.fsys, c); err == nil {
			return c, data, nil
		}
	}
	return "", nil, fmt.Errorf("not found (looked in %s)", strings.Join(cands, ", "))
}

// logLineRe matches the file:line prefixes of compile logs: Mesa writes
// "0:12(3): error: ...", NVIDIA "0(12) : error C0000: ...", glslangValidator
// "ERROR: 0:12: ...".
var logLineRe = regexp.MustCompile(`(?m)^(ERROR: |WARNING: )?(\d+)(:(\d+)\((\d+)\)|\((\d+)\)|:(\d+):)`)

// MapLog rewrites the source-string numbers and lines of a driver's compile
// log to file names and their own lines: "0:100012(3): error" becomes
// "include/common.glsl:12(3): error" (Mesa's format; NVIDIA writes
// "0(12) : error C0000: ...").
func (s *Source) MapLog(log string) string {
	return logLineRe.ReplaceAllStringFunc(log, func(m string) string {
		sm := logLineRe.FindStringSubmatch(m)
		id, _ := strconv.Atoi(sm[2])
		lineStr := sm[4] + sm[6] + sm[7]
		line, _ := strconv.Atoi(lineStr)
		if line >= LineBase {
			id, line = line/LineBase, line%LineBase
		}
		if id < 0 || id >= len(s.Files) {
			return m
		}
		switch {
		case sm[4] != "":
			return fmt.Sprintf("%s%s:%d(%s)", sm[1], s.Files[id], line, sm[5])
		case sm[7] != "":
			return fmt.Sprintf("%s%s:%d:", sm[1], s.Files[id], line)
		}
		return fmt.Sprintf("%s%s:%d", sm[1], s.Files[id], line)
	})
}
