package dataset

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/dpgl/dpgl/rasterizer/volume"
)

// The fields of the paper's second experiment (§4: "Two datasets were
// generated from different outputs of a fluid-dynamics simulation and the
// other from the output of a particle interaction simulation"). The CM-5
// outputs are not available; these are built-in stand-ins of the same
// kinds, deterministic so that the experiment's sets are the same in every
// run.

// TaylorGreenSpeed is the speed |u| of the Taylor–Green vortex, the
// standard initial state of direct numerical simulations of decaying
// turbulence (Taylor & Green 1937; Brachet et al. 1983),
//
//	u = ( sin x cos y cos z, −cos x sin y cos z, 0 ),
//
// over one period, x, y, z in [−π, π] mapped onto [−1, 1]^3. Its
// isosurface at 0.5 is a lattice of tubes of fast flow between the
// vortices.
func TaylorGreenSpeed() volume.Field {
	return volume.Field{
		Name:        "taylor-green-speed",
		Description: "Taylor–Green vortex, speed |u| (one period)",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0.5,
		Isovalues: []float32{0.2, 0.8, 1.5},
		Eval: func(x, y, z float64) float64 {
			sx, cx := math.Sincos(math.Pi * x)
			sy, cy := math.Sincos(math.Pi * y)
			_, cz := math.Sincos(math.Pi * z)
			return math.Abs(cz) * math.Sqrt(sx*sx*cy*cy+cx*cx*sy*sy)
		},
	}
}

// TaylorGreenVorticity is the vorticity magnitude |∇×u| of the same
// Taylor–Green vortex (the other output a flow solver writes):
//
//	ω = ( −cos x sin y sin z, −sin x cos y sin z, 2 sin x sin y cos z ).
//
// Its isosurface at 1 (the maximum is 2) is the vortex cores: closed
// tubes about the z axis of each cell.
func TaylorGreenVorticity() volume.Field {
	return volume.Field{
		Name:        "taylor-green-vorticity",
		Description: "Taylor–Green vortex, vorticity magnitude |∇×u| (one period)",
		Lo:          cube[0], Hi: cube[1],
		Iso:       1,
		Isovalues: []float32{0.5, 1.6, 2.5},
		Eval: func(x, y, z float64) float64 {
			sx, cx := math.Sincos(math.Pi * x)
			sy, cy := math.Sincos(math.Pi * y)
			sz, cz := math.Sincos(math.Pi * z)
			a, b, c := cx*sy*sz, sx*cy*sz, 2*sx*sy*cz
			return math.Sqrt(a*a + b*b + c*c)
		},
	}
}

// cube is the fields' domain, as the built-in fields of volume.
var cube = [2][3]float64{{-1, -1, -1}, {1, 1, 1}}

// Particle simulation parameters: N particles, the interaction's length
// scale sigma, and the steps of the integration.
const (
	particleCount = 400
	particleSteps = 1000
	particleSeed  = 1995 // the paper's year: any fixed seed does
	sigma         = 0.07
	kernelRadius  = 0.11 // the density kernel's support
)

// Particles is the density of a particle interaction simulation: 400
// particles start at rest, scattered (from a fixed seed) in a ball of radius
// 0.75, and move for 1000 steps under a Lennard-Jones pair force (length
// 0.07: a hard core and a short-range attraction) and a weak pull to the
// centre, cooled by damping, by velocity Verlet. They condense into
// droplets and chains of all sizes beside single particles, like the
// clusters of a molecular-dynamics run. The field sums the SPH poly6 kernel
// (1 − r²/h²)³ of every particle (h = 0.11); its isosurface at 0.5 wraps
// the clusters. Everything is float64 in a fixed order, so the field is
// the same in every run (on one architecture: one that fuses multiply-adds
// may round differently). The simulation runs once per process (about a
// second).
func Particles() volume.Field {
	d := newDensity(particlePositions(), kernelRadius)
	return volume.Field{
		Name:        "particles",
		Description: "particle interaction simulation (400 Lennard-Jones particles, 1000 steps), SPH density",
		Lo:          cube[0], Hi: cube[1],
		Iso:       0.5,
		Isovalues: []float32{0.2, 1.5, 40},
		Eval:      d.at,
	}
}

// particlePositions is the simulation's result, shared read-only by every
// Particles field.
var particlePositions = sync.OnceValue(simulateParticles)

// simulateParticles runs the particle simulation and returns the final
// positions.
func simulateParticles() [][3]float64 {
	r := rand.New(rand.NewPCG(particleSeed, 0))
	pos := make([][3]float64, particleCount)
	for i := range pos {
		for { // uniform in the ball: rejection from the cube
			p := [3]float64{2*r.Float64() - 1, 2*r.Float64() - 1, 2*r.Float64() - 1}
			if p[0]*p[0]+p[1]*p[1]+p[2]*p[2] <= 1 {
				pos[i] = [3]float64{0.75 * p[0], 0.75 * p[1], 0.75 * p[2]}
				break
			}
		}
	}
	vel := make([][3]float64, particleCount)
	acc := make([][3]float64, particleCount)
	forces(pos, acc)
	const dt, damping = 4e-4, 0.99
	for s := 0; s < particleSteps; s++ {
		for i := range pos {
			for a := 0; a < 3; a++ {
				vel[i][a] += 0.5 * dt * acc[i][a]
				pos[i][a] += dt * vel[i][a]
			}
		}
		forces(pos, acc)
		for i := range pos {
			for a := 0; a < 3; a++ {
				vel[i][a] = damping * (vel[i][a] + 0.5*dt*acc[i][a])
			}
		}
	}
	return pos
}

// forces sets acc to the Lennard-Jones force of every pair (cut off at
// 2.5 sigma, capped so that particles drawn close together at the start do
// not fly apart) and the pull to the centre, in a fixed order.
func forces(pos, acc [][3]float64) {
	const cut2 = 2.5 * 2.5 * sigma * sigma
	const eps, pull, capF = 1.0, 8.0, 5e4
	for i := range acc {
		for a := 0; a < 3; a++ {
			acc[i][a] = -pull * pos[i][a]
		}
	}
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			var d [3]float64
			r2 := 0.0
			for a := 0; a < 3; a++ {
				d[a] = pos[i][a] - pos[j][a]
				r2 += d[a] * d[a]
			}
			if r2 >= cut2 {
				continue
			}
			s2 := sigma * sigma / r2
			s6 := s2 * s2 * s2
			// F(r)/r = 24 eps (2 s^12 − s^6) / r^2.
			f := min(24*eps*(2*s6*s6-s6)/r2, capF)
			for a := 0; a < 3; a++ {
				acc[i][a] += f * d[a]
				acc[j][a] -= f * d[a]
			}
		}
	}
}

// density is the SPH sum over particles binned in cells of the kernel's
// radius, so that a sample visits only the 27 cells around it.
type density struct {
	h     float64
	n     int            // cells per axis over [-1, 1]
	cells [][][3]float64 // the particles of each cell
}

func newDensity(pos [][3]float64, h float64) *density {
	d := &density{h: h, n: int(math.Ceil(2 / h))}
	d.cells = make([][][3]float64, d.n*d.n*d.n)
	for _, p := range pos {
		c, ok := d.cell(p)
		if ok {
			d.cells[c] = append(d.cells[c], p)
		}
	}
	return d
}

func (d *density) coord(x float64) int {
	return min(max(int((x+1)/d.h), 0), d.n-1)
}

// cell is the cell of p; false for a particle that left the domain (its
// kernel could still reach inside, but none does in this simulation).
func (d *density) cell(p [3]float64) (int, bool) {
	for _, x := range p {
		if x < -1 || x > 1 {
			return 0, false
		}
	}
	return d.coord(p[0]) + d.n*(d.coord(p[1])+d.n*d.coord(p[2])), true
}

func (d *density) at(x, y, z float64) float64 {
	cx, cy, cz := d.coord(x), d.coord(y), d.coord(z)
	h2 := d.h * d.h
	sum := 0.0
	for k := max(cz-1, 0); k <= min(cz+1, d.n-1); k++ {
		for j := max(cy-1, 0); j <= min(cy+1, d.n-1); j++ {
			for i := max(cx-1, 0); i <= min(cx+1, d.n-1); i++ {
				for _, p := range d.cells[i+d.n*(j+d.n*k)] {
					dx, dy, dz := x-p[0], y-p[1], z-p[2]
					if r2 := dx*dx + dy*dy + dz*dz; r2 < h2 {
						q := 1 - r2/h2
						sum += q * q * q
					}
				}
			}
		}
	}
	return sum
}
