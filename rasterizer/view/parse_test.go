package view

import (
	"fmt"
	"strings"
	"testing"
)

// Both syntaxes bench has taken (commas outside parentheses for paper,
// render and calibrate; semicolons or spaces for strategies) read alike.
func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"all", "(0,0) (45,45) M(0,0) M(45,45)"},
		{" all ", "(0,0) (45,45) M(0,0) M(45,45)"},
		{" (0,0), M(45, 45),M(0,0)", "(0,0) M(45,45) M(0,0)"},
		{"(0,0);M(45,45)", "(0,0) M(45,45)"},
		{"(0,0) M(45,45)", "(0,0) M(45,45)"},
		{"M( 0 , 0 ) ; (45,45);", "M(0,0) (45,45)"},
		{"(45,45)", "(45,45)"},
		{"(90,0) (-30.5, 15)x2.5 M(30,-15)x2 (0,0)x3 (360,0)", "(90,0) (-30.5,15)x2.5 (30,-15)x6 M(0,0) (360,0)"},
		{"(-0,-0)", "(0,0)"},
	} {
		vs, err := ParseList(c.in)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		var names []string
		for _, v := range vs {
			names = append(names, v.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Fatalf("%q: %s, want %s", c.in, got, c.want)
		}
	}
	if vs, _ := ParseList("M(0,0)"); vs[0].Magnification != Magnified {
		t.Fatalf("M(0,0) has magnification %v", vs[0].Magnification)
	}
	// The paper's views read from their names are the paper's views.
	for _, p := range Paper() {
		if v, err := Parse(p.Name); err != nil || v != p {
			t.Fatalf("Parse(%s) = %+v, %v; want %+v", p.Name, v, err, p)
		}
	}
	if v, _ := Parse("(30,15)x2.5"); v.Azimuth != 30 || v.Elevation != 15 || v.Magnification != 2.5 {
		t.Fatalf("(30,15)x2.5 is %+v", v)
	}
	// Named's names read back as the same view.
	for _, c := range [][3]float32{{0.1, -89.99, 1}, {-720, 0, 1e-3}, {1.0 / 3, 2.0 / 3, 7.5}, {12345.678, 45, Magnified}} {
		v := Named(c[0], c[1], c[2])
		if w, err := Parse(v.Name); err != nil || w != v {
			t.Fatalf("Named%v = %+v reads back as %+v, %v", c, v, w, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"(1,1,1)", `view: no view "(1,1,1)": want two angles`},
		{"(90,90)", `view: no view "(90,90)": elevation 90: want a value strictly between -90 and 90`},
		{"(NaN,0)", `view: no view "(NaN,0)": azimuth "NaN": want a finite number`},
		{"(0,1e40)", `view: no view "(0,1e40)": elevation "1e40"`},
		{"(0,0)x0", `view: no view "(0,0)x0": zoom 0: want a positive magnification`},
		{"(0,0)x-2", `view: no view "(0,0)x-2": zoom -2`},
		{"(0,0)y2", `view: no view "(0,0)y2": "y2" after the parentheses`},
		{"(0,0)x", `view: no view "(0,0)x": zoom ""`},
		{"X(0,0)", `view: no view "X(0,0)": want (azimuth,elevation)`},
		{"(0,0)x1e38,M(0,0)x2e38", `view: no view "M(0,0)x2e38": magnification 6e+38`},
		{"(0,0)x1,(0,0)", "view: view (0,0) given twice"},
		{"M(45,45.0) (45,45)x3", "view: view M(45,45) given twice"},
		{"(0,0),(0,0)", "view: view (0,0) given twice"},
		{"(0,0) M(0, 0), M(0,0)", "view: view M(0,0) given twice"},
		{"", `view: no view named in ""`},
		{" ; , ", `view: no view named in " ; , "`},
		{"M(45,45", `view: "M(45,45": a '(' without its ')'`},
		{"0,0)", `view: "0,0)": a ')' without its '('`},
		{"M (45,45)", `view: no view "M"`},
		{"all,(0,0)", `view: no view "all"`},
	} {
		if _, err := ParseList(c.in); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error beginning %q", c.in, err, c.want)
		}
	}
}

func ExampleParseList() {
	vs, err := ParseList("(0,0); M(45, 45)")
	if err != nil {
		panic(err)
	}
	for _, v := range vs {
		fmt.Println(v.Name, v.Magnification)
	}
	// Output:
	// (0,0) 1
	// M(45,45) 3
}
