package experiment

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dpgl/dpgl/balancer"
)

// LanesLabel names a Lanes value as bench's -lanes flag spells it (0:
// "all", one lane per processor).
func LanesLabel(n int) string {
	if n == 0 {
		return "all"
	}
	return strconv.Itoa(n)
}

// PolicyLabel is the paper's name of a policy's renderer: OR (the
// original renderer) for Never, LB (load-balanced) for CostEffective.
func PolicyLabel(p balancer.Policy) string {
	switch p {
	case balancer.Never:
		return "OR"
	case balancer.CostEffective:
		return "LB"
	}
	return p.String()
}

// Ms is a duration in milliseconds.
func Ms(d time.Duration) float64 { return float64(d) / 1e6 }

// Ratio is a/b, 0 when b is not positive.
func Ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// FmtMs prints a duration in milliseconds with three significant digits.
func FmtMs(d time.Duration) string {
	v := Ms(d)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// FmtDur prints a duration in the unit that suits it.
func FmtDur(d time.Duration) string {
	us := float64(d) / 1e3
	switch {
	case us < 1000:
		return fmt.Sprintf("%.1f us", us)
	case us < 1e6:
		return fmt.Sprintf("%.2f ms", us/1e3)
	}
	return fmt.Sprintf("%.2f s", us/1e6)
}
