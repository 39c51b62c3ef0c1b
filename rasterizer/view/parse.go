package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Named is the orbit view of azimuth az and elevation el (degrees) at
// magnification mag, named in the notation Parse reads: "(az,el)" at 1,
// "M(az,el)" at Magnified, "(az,el)xmag" otherwise, each number in the
// fewest digits that read back as the same float32 ("(30,15)x2.5").
func Named(az, el, mag float32) View {
	num := func(x float32) string { return strconv.FormatFloat(float64(x+0), 'g', -1, 32) } // +0: no "-0"
	name := "(" + num(az) + "," + num(el) + ")"
	switch mag {
	case 1:
	case Magnified:
		name = "M" + name
	default:
		name += "x" + num(mag)
	}
	return View{Name: name, Azimuth: az + 0, Elevation: el + 0, Magnification: mag}
}

// Parse reads one view in the paper's notation generalised:
//
//	(az,el)        azimuth and elevation in degrees, the whole dataset in view
//	M(az,el)       magnified as the paper's M views are (Magnified)
//	(az,el)x2.5    magnified 2.5 times; M(az,el)x2 is magnified 2·Magnified
//
// Azimuth is any finite number of degrees, elevation lies strictly between
// −90 and 90, and a magnification is positive and finite; spaces are
// ignored. The view's Name is Named's, so "M(45, 45.0)" is the paper's
// M(45,45) and the same view written two ways has one name. An error
// names the view and the part of it that is wrong.
func Parse(s string) (View, error) {
	name := strings.Join(strings.Fields(s), "")
	rest, mag := name, float64(1)
	if strings.HasPrefix(rest, "M") {
		rest, mag = rest[1:], Magnified
	}
	open, end := strings.IndexByte(rest, '('), strings.IndexByte(rest, ')')
	if open != 0 || end < 0 {
		return View{}, fmt.Errorf("view: no view %q: want (azimuth,elevation), M(azimuth,elevation) or (azimuth,elevation)xZOOM", s)
	}
	nums := strings.Split(rest[1:end], ",")
	if len(nums) != 2 {
		return View{}, fmt.Errorf("view: no view %q: want two angles in the parentheses, azimuth and elevation in degrees", s)
	}
	az, err := number(s, "azimuth", nums[0])
	if err != nil {
		return View{}, err
	}
	el, err := number(s, "elevation", nums[1])
	if err != nil {
		return View{}, err
	}
	if !(math.Abs(el) < 90) {
		return View{}, fmt.Errorf("view: no view %q: elevation %v: want a value strictly between -90 and 90", s, el)
	}
	if zoom := rest[end+1:]; zoom != "" {
		if !strings.HasPrefix(zoom, "x") {
			return View{}, fmt.Errorf("view: no view %q: %q after the parentheses: want nothing or xZOOM, e.g. x2.5", s, zoom)
		}
		z, err := number(s, "zoom", zoom[1:])
		if err != nil {
			return View{}, err
		}
		if !(z > 0) {
			return View{}, fmt.Errorf("view: no view %q: zoom %v: want a positive magnification", s, z)
		}
		mag *= z
	}
	if m := float32(mag); !(m > 0) || math.IsInf(float64(m), 0) {
		return View{}, fmt.Errorf("view: no view %q: magnification %.3g: want a positive magnification within float32's range", s, mag)
	}
	return Named(float32(az), float32(el), float32(mag)), nil
}

// number reads one field of view s as a finite float32.
func number(s, field, x string) (float64, error) {
	f, err := strconv.ParseFloat(x, 32)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("view: no view %q: %s %q: want a finite number of degrees", s, field, x)
	}
	return f, nil
}

// ByName returns the view with the given name in Parse's notation (e.g.
// "M(45,45)" or "(90,0)x2").
func ByName(name string) (View, error) { return Parse(name) }

// ParseList reads a list of views, as bench's and the viewer's flags take
// them: views in Parse's notation separated by commas, semicolons or
// spaces outside parentheses ("(0,0),M(45,45)", "(0,0);(90,0)x2" and
// "(0,0) M(45,45)" alike; spaces inside parentheses are ignored, so
// "M(45, 45)" is M(45,45)), or "all" for Paper(). A malformed view, a view
// given twice (by its Name), unbalanced parentheses or no view at all is an
// error that names it.
func ParseList(s string) ([]View, error) {
	if strings.TrimSpace(s) == "all" {
		return Paper(), nil
	}
	names, err := splitNames(s)
	if err != nil {
		return nil, err
	}
	var out []View
	for _, name := range names {
		v, err := Parse(name)
		if err != nil {
			return nil, fmt.Errorf("%w (the paper's are %s, or all)", err, strings.Join(Names(), " "))
		}
		for _, o := range out {
			if o.Name == v.Name {
				return nil, fmt.Errorf("view: view %s given twice", v.Name)
			}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("view: no view named in %q (have %s, or all)", s, strings.Join(Names(), " "))
	}
	return out, nil
}

// splitNames splits s at commas, semicolons and spaces outside
// parentheses, dropping the spaces inside them and empty names.
func splitNames(s string) ([]string, error) {
	var names []string
	var cur strings.Builder
	depth := 0
	for _, r := range s + "," {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("view: %q: a ')' without its '('", s)
			}
		case unicode.IsSpace(r) && depth > 0:
			continue
		case (r == ',' || r == ';' || unicode.IsSpace(r)) && depth == 0:
			if cur.Len() > 0 {
				names = append(names, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(r)
	}
	if depth > 0 {
		return nil, fmt.Errorf("view: %q: a '(' without its ')'", s)
	}
	return names, nil
}

// Usage describes the notation for command-line help.
const Usage = "(az,el), M(az,el) or (az,el)xZOOM in degrees, e.g. (90,0) or (30,15)x2.5"
