package picture

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/isosurface"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
	"github.com/dpgl/dpgl/scan"
)

// ErrEmpty is the error Surface wraps when no sample crosses the isovalue.
var ErrEmpty = errors.New("the surface is empty")

// Options are a picture's size and look.
type Options struct {
	Width, Height int // pixels, 1..raster.MaxImageSize each
	// Material is the surface's colour, the background's and the
	// shading (rasterizer.Flat for one normal per triangle).
	Material rasterizer.Material
}

// DefaultOptions are 512x512 pictures in rasterizer.DefaultMaterial.
func DefaultOptions() Options {
	return Options{Width: 512, Height: 512, Material: rasterizer.DefaultMaterial}
}

// Drawer draws meshes with the tiled rasterizer.
type Drawer struct {
	c  *gpu.Context
	sc *scan.Scanner
	r  *rasterizer.Renderer
}

// New makes a Drawer for pictures of o's size and look.
func New(c *gpu.Context, o Options) (d *Drawer, err error) {
	d = &Drawer{c: c}
	defer func() {
		if err != nil {
			d.Delete()
			d = nil
		}
	}()
	if d.sc, err = scan.New(c); err != nil {
		return d, fmt.Errorf("picture: %w", err)
	}
	ro := rasterizer.DefaultOptions()
	ro.Width, ro.Height, ro.Material, ro.Tiled = o.Width, o.Height, o.Material, true
	if d.r, err = rasterizer.New(d.sc, ro); err != nil {
		return d, fmt.Errorf("picture: %w", err)
	}
	return d, nil
}

// Delete releases the Drawer's GL objects.
func (d *Drawer) Delete() {
	if d.r != nil {
		d.r.Delete()
		d.r = nil
	}
	if d.sc != nil {
		d.sc.Delete()
		d.sc = nil
	}
}

// Draw uploads m and draws it from each view in frame orbit (a view with a
// frame of its own keeps it), each fitted to m's bounds, calling done (when
// not nil) with each picture as it is read back; it returns the pictures in
// the views' order.
func (d *Drawer) Draw(m *mesh.Mesh, orbit view.Frame, views []view.View, done func(i int, img *image.RGBA) error) ([]*image.RGBA, error) {
	lo, hi, ok := m.Bounds()
	if !ok || m.Len() == 0 {
		return nil, errors.New("picture: the mesh has no triangles")
	}
	g, err := mesh.Upload(d.c, m)
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	defer g.Delete()
	o := d.r.Options()
	imgs := make([]*image.RGBA, 0, len(views))
	for i, v := range views {
		if _, err := d.r.Render(g, v.In(orbit).Fit(lo, hi, o.Width, o.Height)); err != nil {
			return nil, fmt.Errorf("picture: view %s: %w", v.Name, err)
		}
		img := d.r.Image()
		imgs = append(imgs, img)
		if done != nil {
			if err := done(i, img); err != nil {
				return nil, err
			}
		}
	}
	return imgs, nil
}

// Surface is v's isosurface at iso, every cell of it (isosurface.Extract),
// and the frame its views orbit in: view.RAS when v is in RAS+
// coordinates. It is an error, naming the value, when iso is not finite,
// v has a side of one sample, or no sample crosses iso (ErrEmpty).
func Surface(v *volume.Volume, iso float32) (*mesh.Mesh, view.Frame, error) {
	if math.IsNaN(float64(iso)) || math.IsInf(float64(iso), 0) {
		return nil, view.Frame{}, fmt.Errorf("picture: isovalue %v: want a finite number", iso)
	}
	if d := v.Dims; min(d[0], d[1], d[2]) < 2 {
		return nil, view.Frame{}, fmt.Errorf("picture: a %dx%dx%d volume has a side of 1 sample: no cells to extract a surface from", d[0], d[1], d[2])
	}
	m, _, err := isosurface.Extract(v, iso)
	if err != nil {
		return nil, view.Frame{}, fmt.Errorf("picture: %w", err)
	}
	if m.Len() == 0 {
		lo, hi := v.Range()
		return nil, view.Frame{}, fmt.Errorf("picture: %w at isovalue %g (the samples run from %g to %g)", ErrEmpty, iso, lo, hi)
	}
	var orbit view.Frame
	if v.RAS {
		orbit = view.RAS
	}
	return m, orbit, nil
}

// Volume draws v's isosurface at iso from each view: Surface, then a
// Drawer's Draw.
func Volume(c *gpu.Context, v *volume.Volume, iso float32, views []view.View, o Options) ([]*image.RGBA, error) {
	m, orbit, err := Surface(v, iso)
	if err != nil {
		return nil, err
	}
	return draw(c, m, orbit, views, o)
}

// Mesh draws m from each view in the paper's y-up frame.
func Mesh(c *gpu.Context, m *mesh.Mesh, views []view.View, o Options) ([]*image.RGBA, error) {
	return draw(c, m, view.Frame{}, views, o)
}

func draw(c *gpu.Context, m *mesh.Mesh, orbit view.Frame, views []view.View, o Options) ([]*image.RGBA, error) {
	d, err := New(c, o)
	if err != nil {
		return nil, err
	}
	defer d.Delete()
	return d.Draw(m, orbit, views, nil)
}
