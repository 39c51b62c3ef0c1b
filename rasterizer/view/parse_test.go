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
	for _, c := range []struct{ in, want string }{
		{"(1,1)", `view: no view "(1,1)" (have (0,0) (45,45) M(0,0) M(45,45), or all)`},
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
