package cliflag

import (
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func parse(t *testing.T, def func(fs *flag.FlagSet), args ...string) error {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	def(fs)
	return fs.Parse(args)
}

func TestFloat(t *testing.T) {
	for _, c := range []struct {
		kind Floats
		in   string
		ok   bool
		want float64
	}{
		{Finite, "-2.5", true, -2.5},
		{Finite, "1e300", true, 1e300},
		{Finite, "0x1p-2", true, 0.25},
		{Finite, "NaN", false, 0}, {Finite, "nan", false, 0}, {Finite, "Inf", false, 0}, {Finite, "-Infinity", false, 0},
		{Finite, "1e400", false, 0}, {Finite, "", false, 0}, {Finite, "3x", false, 0},
		{Float32, "3.4e38", true, 3.4e38}, {Float32, "-3.5e38", false, 0}, {Float32, "1e300", false, 0},
		{NonNegative, "0", true, 0}, {NonNegative, "-0.001", false, 0}, {NonNegative, "+Inf", false, 0},
		{Positive, "1e-300", true, 1e-300},
		{NonNegative32, "3e38", true, 3e38}, {NonNegative32, "1e39", false, 0}, {NonNegative32, "-1", false, 0}, {Positive, "0", false, 0}, {Positive, "NaN", false, 0},
		{Finite, "1e-400", true, 0}, // underflow to 0 is a finite number
	} {
		v := 7.0
		err := parse(t, func(fs *flag.FlagSet) { Float(fs, &v, "x", 7, "", c.kind) }, "-x", c.in)
		if c.ok != (err == nil) || (c.ok && v != c.want) || (!c.ok && v != 7) {
			t.Errorf("%v %q: %v, %v", c.kind, c.in, v, err)
		}
		if err != nil && !strings.Contains(err.Error(), `invalid value "`+c.in+`" for flag -x: `) {
			t.Errorf("%v %q: message %q does not name the flag and value", c.kind, c.in, err)
		}
	}
}

func TestInt(t *testing.T) {
	for _, c := range []struct {
		lo, hi int
		in     string
		ok     bool
		msg    string
	}{
		{1, 10, "10", true, ""}, {1, 10, "0x0a", true, ""}, {1, 10, "11", false, "want an integer in 1..10"},
		{0, math.MaxInt, "-1", false, "want an integer, 0 or more"}, {0, math.MaxInt, "1.5", false, "not an integer"},
		{0, math.MaxInt, "99999999999999999999", false, "want an integer, 0 or more"}, {0, math.MaxInt, "NaN", false, "not an integer"},
		{math.MinInt, 5, "6", false, "want an integer, 5 or less"},
	} {
		v := 1
		err := parse(t, func(fs *flag.FlagSet) { Int(fs, &v, "n", 1, "", c.lo, c.hi) }, "-n", c.in)
		if c.ok != (err == nil) || (!c.ok && (v != 1 || !strings.Contains(err.Error(), `invalid value "`+c.in+`" for flag -n: `+c.msg))) {
			t.Errorf("%d..%d %q: %v, %v", c.lo, c.hi, c.in, v, err)
		}
	}
}

func TestBadDefaultPanics(t *testing.T) {
	for _, def := range []func(fs *flag.FlagSet){
		func(fs *flag.FlagSet) { var v float64; Float(fs, &v, "x", math.NaN(), "", Finite) },
		func(fs *flag.FlagSet) { var v float64; Float(fs, &v, "x", 0, "", Positive) },
		func(fs *flag.FlagSet) { var v int; Int(fs, &v, "n", 0, "", 1, 5) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "cliflag: ") {
					t.Errorf("recovered %v, want a cliflag panic", r)
				}
			}()
			def(flag.NewFlagSet("t", flag.ContinueOnError))
		}()
	}
}

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0 // root writes in a 0555 folder
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{CheckOutDir("out", dir), ""},
		{CheckOutDir("out", filepath.Join(dir, "new", "deeper")), ""},
		{CheckOutDir("out", file), "not a folder"},
		{CheckOutDir("out", filepath.Join(file, "sub")), "not a "},
		{CheckOutFile("shot", filepath.Join(dir, "a.png")), ""},
		{CheckOutFile("shot", file), ""},
		{CheckOutFile("shot", dir), "is a folder"},
		{CheckOutFile("shot", filepath.Join(dir, "none", "a.png")), "no such file"},
		{CheckOutFile("shot", ""), "want a file name"},
		{CheckInFile("mesh", file), ""},
		{CheckInFile("mesh", dir), "a folder"},
		{CheckInFile("mesh", filepath.Join(dir, "none.ply")), "no such file"},
	} {
		switch {
		case c.want == "" && c.err != nil:
			t.Errorf("unexpected %v", c.err)
		case c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want) || !strings.Contains(c.err.Error(), "for flag -")):
			t.Errorf("%v, want an error naming the flag and containing %q", c.err, c.want)
		}
	}
	if !root {
		if err := CheckOutDir("out", ro); err == nil || !strings.Contains(err.Error(), "cannot write") {
			t.Errorf("read-only folder: %v", err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the checks left %d entries, want the 2 made here", len(ents))
	}
}
