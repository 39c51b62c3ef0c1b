package volume

import "math"

// PerforatorJet is a synthetic stand-in for the paper's dataset, a
// hydrodynamics simulation of an oil-well perforator: a shaped charge fired
// upward along y through the wall of a well casing. The field is a material
// density in [0, 1] (isovalue 0.5) on [-1, 1]^3, made of
//
//   - the charge case: a closed-bottom steel tube (y −0.92 … −0.30), its
//     mouth flared open by the detonation;
//   - the slug: the slow, thick remnant of the liner above the case;
//   - the jet: a stretching rod from the slug to y ≈ 0.8, thinning toward
//     the tip and particulating into beads;
//   - detached particles ahead of the tip;
//   - the well casing: a curved steel wall (part of a pipe along x) across
//     the jet's path, with the hole the jet punched through and the lip of
//     torn metal around the exit.
//
// Long cylinders and broad shells beside small beads give marching cubes a
// uniform triangulation of a surface whose curvature varies widely — the
// situation where a decimated mesh becomes unbalanced, as in the paper's
// Table 1. The density has a smooth transition of width about 0.04 across
// the surface, like a simulation's material fraction.
func PerforatorJet() Field {
	return Field{
		Name:        "perforator",
		Description: "synthetic oil-well perforator: shaped-charge case, slug, particulating jet, pierced casing wall",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0.5,
		Isovalues: []float32{0.1, 0.9, 1.5},
		Eval: func(x, y, z float64) float64 {
			return 0.5 - 0.5*math.Tanh(perforatorDistance(x, y, z)/0.04)
		},
	}
}

// perforatorDistance is an approximate signed distance to the perforator's
// parts, negative inside.
func perforatorDistance(x, y, z float64) float64 {
	r := math.Hypot(x, z)

	// Charge case: a tube of wall 0.06, flaring outward over its top 0.15.
	flare := 0.07 * smoothstep(-0.45, -0.30, y)
	rOut := 0.40 + flare
	wall := math.Max(r-rOut, (rOut-0.06)-r)
	tube := math.Max(wall, math.Abs(y+0.61)-0.31) // y in [-0.92, -0.30]
	bottom := math.Max(r-rOut, math.Abs(y+0.89)-0.03)
	d := math.Min(tube, bottom)

	// Slug: an ellipsoid (radii 0.10, 0.17) just above the case mouth.
	slug := ellipsoid(x, y+0.12, z, 0.10, 0.17, 0.10)

	// Jet: from the slug (y −0.05) to the tip (y 0.80), radius 0.06 → 0.02;
	// above y = 0.35 necks every 0.09 pinch it into beads.
	const y0, y1 = -0.05, 0.80
	s := clamp((y-y0)/(y1-y0), 0, 1)
	rj := 0.06 + (0.02-0.06)*s
	if y > 0.35 {
		c := math.Cos(math.Pi * (y - 0.35) / 0.09)
		rj *= 0.35 + 0.75*c*c
	}
	jet := math.Max(r-rj, math.Max(y0-y, y-y1))
	d = math.Min(d, smin(slug, jet, 0.05))

	// Detached particles ahead of the tip, slightly off axis.
	d = math.Min(d, sphere(x-0.012, y-0.87, z, 0.024))
	d = math.Min(d, sphere(x+0.008, y-0.935, z-0.01, 0.018))

	// Well casing: the gun fires out of the well through the casing pipe,
	// whose axis runs along x at y = −0.6: a shell of radii 0.82 … 0.92
	// (crossing the jet's axis at y 0.22 … 0.32), cut at |x| = 0.85 and
	// |z| = 0.7, with the jet's hole (radius 0.10) and a torn lip (a torus)
	// around the exit.
	rw := math.Hypot(y+0.6, z)
	pipe := math.Max(rw-0.92, 0.82-rw)
	pipe = math.Max(pipe, math.Max(math.Abs(x)-0.85, math.Abs(z)-0.7))
	pipe = math.Max(pipe, 0.10-r)
	q := r - 0.12
	lip := math.Sqrt(q*q+(y-0.33)*(y-0.33)) - 0.03
	d = math.Min(d, smin(pipe, lip, 0.02))
	return d
}

func ellipsoid(x, y, z, a, b, c float64) float64 {
	// The scaled-sphere bound: exact on the axes, smooth everywhere.
	k := math.Sqrt(x*x/(a*a) + y*y/(b*b) + z*z/(c*c))
	return (k - 1) * math.Min(a, math.Min(b, c))
}

func sphere(x, y, z, r float64) float64 { return math.Sqrt(x*x+y*y+z*z) - r }

// smin is the polynomial smooth minimum: min(a, b) blended over width k.
func smin(a, b, k float64) float64 {
	h := clamp(0.5+0.5*(b-a)/k, 0, 1)
	return b + (a-b)*h - k*h*(1-h)
}

func smoothstep(e0, e1, x float64) float64 {
	t := clamp((x-e0)/(e1-e0), 0, 1)
	return t * t * (3 - 2*t)
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }
