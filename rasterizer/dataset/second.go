package dataset

import (
	"fmt"

	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Simulation is one polygon set of the paper's second experiment: the
// isosurface of one simulation output, as the balanced set (marching
// cubes) or the unbalanced one (its quadric-error decimation, made the way
// the default pair's unbalanced set is).
type Simulation struct {
	Field volume.Field
	// Kind is the simulation the field stands in for, in the paper's
	// words: "fluid dynamics" or "particle interaction".
	Kind string
	// Balanced is the set's class: true for the marching-cubes surface,
	// false for its decimation.
	Balanced bool
	// Pair holds the surface; Set is the polygon set of the class, and
	// Pair's bounds fit the views.
	Pair *Pair
}

// Set is the simulation's polygon set: Pair.Balanced or Pair.Unbalanced.
func (s *Simulation) Set() *mesh.Mesh {
	if s.Balanced {
		return s.Pair.Balanced
	}
	return s.Pair.Unbalanced
}

// Class is "balanced" or "unbalanced".
func (s *Simulation) Class() string {
	if s.Balanced {
		return "balanced"
	}
	return "unbalanced"
}

// secondKinds lists the second experiment's sets: two outputs of one
// fluid-dynamics simulation and the output of the particle simulation. Two
// are balanced and one unbalanced, as the paper's were (it does not say
// which). The unbalanced one is the speed: decimation makes an unbalanced
// set of a surface with broad, gently curved sheets (as the default
// pair's casing wall), and the speed's tubes have them; the vortex cores
// and the particles' droplets curve everywhere and stay nearly balanced
// when decimated (at 64^3 and 256x256, view (0,0): scan max/avg 4.0 and
// 3.1 against the speed's 5.3, and 12 and 4.9 against 16.7 at M(0,0)).
var secondKinds = []struct {
	field    func() volume.Field
	kind     string
	balanced bool
}{
	{TaylorGreenSpeed, "fluid dynamics", false},
	{TaylorGreenVorticity, "fluid dynamics", true},
	{Particles, "particle interaction", true},
}

// SecondExperiment makes the three polygon sets of the paper's second
// experiment with every field sampled at n^3: the Taylor–Green vortex's
// speed (unbalanced: its marching-cubes surface decimated by
// DefaultReduction) and vorticity, and the particle density (balanced:
// marching cubes). It returns an error for an n that volume.CheckGrid
// refuses.
func SecondExperiment(n int) ([]*Simulation, error) {
	var out []*Simulation
	for _, k := range secondKinds {
		f := k.field()
		reduction := DefaultReduction
		if k.balanced {
			reduction = 1 // the decimation would be thrown away
		}
		p, err := Sample(f, n, reduction)
		if err != nil {
			return nil, err
		}
		if p.Balanced.Len() == 0 {
			return nil, fmt.Errorf("dataset: %s at %d^3 has no surface at %g", f.Name, n, f.Iso)
		}
		out = append(out, &Simulation{Field: f, Kind: k.kind, Balanced: k.balanced, Pair: p})
	}
	return out, nil
}
