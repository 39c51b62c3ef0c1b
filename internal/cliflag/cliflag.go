package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
)

// Floats are the sets of numbers a float flag takes. Every one of them
// refuses NaN and the infinities; Float32 also refuses what overflows a
// float32 (an isovalue becomes one).
type Floats int

const (
	Finite        Floats = iota // any finite number
	Float32                     // finite as a float32
	NonNegative                 // finite, 0 or more (0 is often "the default")
	Positive                    // finite, more than 0
	NonNegative32               // 0 or more, finite as a float32
)

func (k Floats) String() string {
	switch k {
	case Finite:
		return "a finite number"
	case Float32:
		return fmt.Sprintf("a finite number within ±%.4g", math.MaxFloat32)
	case NonNegative:
		return "a finite number, 0 or more"
	case Positive:
		return "a finite number above 0"
	case NonNegative32:
		return fmt.Sprintf("a number from 0 to %.4g", math.MaxFloat32)
	}
	return fmt.Sprintf("Floats(%d)", int(k))
}

func (k Floats) check(v float64) error {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0)
	switch k {
	case Float32:
		ok = ok && math.Abs(v) <= math.MaxFloat32
	case NonNegative:
		ok = ok && v >= 0
	case Positive:
		ok = ok && v > 0
	case NonNegative32:
		ok = ok && v >= 0 && v <= math.MaxFloat32
	case Finite:
	default:
		panic(fmt.Sprintf("cliflag: %v", k))
	}
	if !ok {
		return errors.New("want " + k.String())
	}
	return nil
}

type floatValue struct {
	p    *float64
	kind Floats
}

func (f *floatValue) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f *floatValue) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return errors.New("not a number")
	}
	if errors.Is(err, strconv.ErrRange) && v != 0 {
		// 1e400 parses to ±Inf with ErrRange: say what was wanted.
		return errors.New("out of range: want " + f.kind.String())
	}
	if err := f.kind.check(v); err != nil {
		return err
	}
	*f.p = v
	return nil
}

// Float defines a float64 flag holding a number of the set kind.
func Float(fs *flag.FlagSet, p *float64, name string, value float64, usage string, kind Floats) {
	if err := kind.check(value); err != nil {
		panic(fmt.Sprintf("cliflag: -%s: default %v: %v", name, value, err))
	}
	*p = value
	fs.Var(&floatValue{p, kind}, name, usage)
}

type intValue struct {
	p        *int
	min, max int
}

func (v *intValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

func (v *intValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return errors.New("not an integer")
	}
	if err != nil || int(n) < v.min || int(n) > v.max {
		return errors.New("want " + rangeText(v.min, v.max))
	}
	*v.p = int(n)
	return nil
}

// rangeText says which integers lo..hi are, leaving out a bound at the
// end of int's range.
func rangeText(lo, hi int) string {
	switch {
	case hi == math.MaxInt && lo == math.MinInt:
		return "an integer"
	case hi == math.MaxInt:
		return fmt.Sprintf("an integer, %d or more", lo)
	case lo == math.MinInt:
		return fmt.Sprintf("an integer, %d or less", hi)
	}
	return fmt.Sprintf("an integer in %d..%d", lo, hi)
}

// Int defines an int flag holding an integer in min..max (math.MaxInt for
// no upper bound).
func Int(fs *flag.FlagSet, p *int, name string, value int, usage string, min, max int) {
	if min > max || value < min || value > max {
		panic(fmt.Sprintf("cliflag: -%s: default %d outside %d..%d", name, value, min, max))
	}
	*p = value
	fs.Var(&intValue{p, min, max}, name, usage)
}

// Error is a flag's value that the command refuses after parsing (a
// combination of flags, a list, a file): it reads as the flag package's
// own refusals do, so that every refusal names the flag and the value the
// same way.
type Error struct {
	Flag, Value, Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid value %q for flag -%s: %s", e.Value, e.Flag, e.Reason)
}

// Errorf is an *Error for -name value.
func Errorf(name, value, format string, a ...any) error {
	return &Error{Flag: name, Value: value, Reason: fmt.Sprintf(format, a...)}
}
