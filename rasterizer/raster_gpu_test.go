package rasterizer

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/shaders"
)

// overlayFS reads from top first, then from the embedded shaders.
type overlayFS struct{ top fs.FS }

func (o overlayFS) Open(name string) (fs.File, error) {
	if f, err := o.top.Open(name); err == nil {
		return f, nil
	}
	return shaders.FS.Open(name)
}

type rasterIn struct {
	P01  [4]int32
	P2Z  [4]int32 // x2, y2, z0, unused
	Z12P [4]uint32
}

// TestRasterGLSLMatchesGo evaluates raster.glsl's setup, spans and depths on
// the GPU for random triangles full of ties (vertices on pixel centres and
// edges, axis-aligned and horizontal edges, negative coordinates, vertices
// across the guard band, whose edge functions and quotients are the
// largest) and
// compares them with package raster, value for value. A driver's integer
// quirk (Mesa 22 folds int64 comparisons of converted ints wrongly) shows up
// here first.
func TestRasterGLSLMatchesGo(t *testing.T) {
	c := gputest.Context(t)
	p, err := c.ProgramFS(overlayFS{os.DirFS("testdata")}, "rastertest.comp", nil)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 48
	r := rand.New(rand.NewPCG(11, 12))
	coord := func() int32 {
		switch r.IntN(5) {
		case 3: // anywhere in the guard band: long edges, large edge functions and quotients
			return r.Int32N(2*raster.GuardPixels*raster.One) - raster.GuardPixels*raster.One
		case 0: // a pixel centre
			return (r.Int32N(60)-10)*raster.One + raster.One/2
		case 1: // a pixel edge
			return (r.Int32N(60) - 10) * raster.One
		}
		return r.Int32N(60*raster.One) - 10*raster.One
	}
	var ins []rasterIn
	for i := 0; i < 6000; i++ {
		x := [3]int32{coord(), coord(), coord()}
		y := [3]int32{coord(), coord(), coord()}
		switch i % 5 {
		case 1:
			y[1] = y[0] // a horizontal edge
		case 2:
			x[2] = x[0] // a vertical edge
		case 3:
			x[1], y[1] = x[0]+3*(x[2]-x[0]), y[0]+3*(y[2]-y[0]) // collinear
		}
		z := [3]uint32{r.Uint32N(raster.DepthMax + 1), r.Uint32N(raster.DepthMax + 1), r.Uint32N(raster.DepthMax + 1)}
		ins = append(ins, rasterIn{[4]int32{x[0], y[0], x[1], y[1]}, [4]int32{x[2], y[2], int32(z[0])}, [4]uint32{z[1], z[2], uint32(i)}})
	}
	n := len(ins)
	exact := 0 // rows whose depths were also compared in doubles
	for _, size := range [][2]int{{37, rows}, {1, 1}, {50, 20}} {
		w, h := size[0], size[1]
		in, _ := gpu.NewBufferFrom(c, ins)
		tb, _ := gpu.NewBuffer[gpuTri](c, n)
		ok, _ := gpu.NewBuffer[uint32](c, n)
		sp, _ := gpu.NewBuffer[[2]int32](c, n*rows)
		dp, _ := gpu.NewBuffer[[2]uint32](c, n*rows)
		ep, _ := gpu.NewBuffer[[2]uint32](c, n*rows)
		c.Do(func() {
			for i, b := range []gpu.Storage{in, tb, ok, sp, dp, ep} {
				c.BindStorage(i, b)
			}
			p.SetUint("n", uint32(n))
			p.SetIvec2("size", int32(w), int32(h))
			p.DispatchInvocations(n)
		})
		gt, gok, gsp, gdp, gep := tb.Download(), ok.Download(), sp.Download(), dp.Download(), ep.Download()
		for _, b := range []interface{ Delete() }{in, tb, ok, sp, dp, ep} {
			b.Delete()
		}
		for i, v := range ins {
			tri, good := raster.Setup([3]raster.Vertex{{X: v.P01[0], Y: v.P01[1], Z: uint32(v.P2Z[2])}, {X: v.P01[2], Y: v.P01[3], Z: v.Z12P[0]}, {X: v.P2Z[0], Y: v.P2Z[1], Z: v.Z12P[1]}}, v.Z12P[2], h)
			if good != (gok[i] == 1) {
				t.Fatalf("%dx%d triangle %d %+v: GPU setup ok=%d, Go %v", w, h, i, v, gok[i], good)
			}
			if !good {
				continue
			}
			if g := gt[i].triangle(); g != tri {
				t.Fatalf("%dx%d triangle %d: GPU setup %+v, Go %+v", w, h, i, g, tri)
			}
			for y := 0; y < min(h, rows); y++ {
				x0, x1, ok := tri.Span(int32(y), w)
				if !ok {
					x0, x1 = 0, -1
				}
				g := gsp[i*rows+y]
				if g != [2]int32{x0, x1} {
					t.Fatalf("%dx%d triangle %d %+v row %d: GPU span %v, Go [%d %d]", w, h, i, tri, y, g, x0, x1)
				}
				if ok {
					want := [2]uint32{tri.Depth(x0, int32(y)), tri.Depth(x1, int32(y))}
					if gdp[i*rows+y] != want {
						t.Fatalf("%dx%d triangle %d row %d: GPU depths %v, Go %v", w, h, i, y, gdp[i*rows+y], want)
					}
					if tri.Area2 < 1<<28 {
						exact++
						if gep[i*rows+y] != want {
							t.Fatalf("%dx%d triangle %d (area2 %d) row %d: GPU depths in doubles %v, Go %v", w, h, i, tri.Area2, y, gep[i*rows+y], want)
						}
					}
				}
			}
		}
	}
	if exact < 10000 {
		t.Errorf("only %d rows of triangles with area2 below 2^28 compared their depths in doubles", exact)
	}
	t.Logf("%d rows' depths compared in doubles too", exact)
}

// TestFloorDivEstimate checks raster.glsl's floorDivEst, the double
// estimate of a 64-bit floor division and its one correcting step, on the
// quotients the spans and depths ask of it at their largest (|n / a| up to
// 2^49, n up to 2^62) and on the dividends around exact multiples, where a
// double quotient rounds to the next integer either way; and floorDivRecip,
// the same in doubles by a reciprocal, over its range (|n| + a < 2^53,
// |n / a| < 2^50).
func TestFloorDivEstimate(t *testing.T) {
	c := gputest.Context(t)
	for _, k := range []struct {
		name       string
		recip      string
		maxN, maxQ int64
		maxABits   int
	}{{"floorDivEst", "0", 1 << 62, 1 << 49, 37}, {"floorDivRecip", "1", 1<<52 - 1, 1 << 49, 40}} {
		p, err := c.ProgramFS(overlayFS{os.DirFS("testdata")}, "divtest.comp", map[string]string{"RECIP": k.recip})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(5, 6))
		var in []int64
		for i := 0; i < 20000; i++ {
			a := int64(1) + r.Int64N(int64(1)<<(1+r.IntN(k.maxABits)))
			qmax := min(k.maxQ, k.maxN/a-1)
			q := r.Int64N(qmax) - qmax/2
			n := q*a + []int64{-1, 0, 1, a - 1, -a + 1, r.Int64N(a)}[i%6]
			in = append(in, n, a)
		}
		in = append(in, 0, 1, -1, 1, 1, 1, -1, 3, 7, 3, -7, 3)
		m := len(in) / 2
		ib, err := gpu.NewBufferFrom(c, in)
		if err != nil {
			t.Fatal(err)
		}
		ob, err := gpu.NewBuffer[int64](c, m)
		if err != nil {
			t.Fatal(err)
		}
		c.Do(func() {
			c.BindStorage(0, ib)
			c.BindStorage(1, ob)
			p.SetUint("n", uint32(m))
			p.DispatchInvocations(m)
		})
		got := ob.Download()
		ib.Delete()
		ob.Delete()
		for i := 0; i < m; i++ {
			n, a := in[2*i], in[2*i+1]
			want := n / a
			if n%a != 0 && n < 0 {
				want--
			}
			if got[i] != want {
				t.Fatalf("%s(%d, %d) = %d, want %d", k.name, n, a, got[i], want)
			}
		}
	}
}
