package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/cliflag"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/picture"
	"github.com/dpgl/dpgl/rasterizer/raster"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

func init() {
	commands["image"] = command{runImage, "write a PNG of one surface per camera, headless, with the fastest renderer (no decimation, no measurements)"}
}

const imageHelp = "Loads a volume (-volume, a NIfTI-1 file, drawn upright in RAS+ when it has an orientation), a mesh (-mesh, PLY)\n" +
	"or a built-in field (-field), extracts one isosurface with marching cubes (every cell: no decimation), and writes\n" +
	"one PNG per camera of -views into -out with the tiled renderer (package rasterizer/picture). Nothing is measured\n" +
	"and no policy is swept. It prints each file written and the time from the command's start to it."

// imageFlags are bench image's flags, checked before any work.
type imageFlags struct {
	volume, mesh, field string
	res                 int
	iso                 float64
	width, height       int
	colour, background  string
	flat                bool
	views, out          string

	fs       *flag.FlagSet
	viewList []view.View
	material rasterizer.Material
}

func (f *imageFlags) given(name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

func parseImage(args []string) (*imageFlags, error) {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	f := &imageFlags{fs: fs}
	fs.StringVar(&f.volume, "volume", "", "a NIfTI-1 volume (.nii or .nii.gz), e.g. /usr/share/mricron/templates/ch2.nii.gz")
	fs.StringVar(&f.mesh, "mesh", "", "a PLY mesh, drawn as it is")
	fs.StringVar(&f.field, "field", volume.Default().Name, "built-in field to sample when neither -volume nor -mesh is given: "+strings.Join(fieldNames(), ", "))
	cliflag.Int(fs, &f.res, "res", 0, "a field is sampled at res^3 (0: 128); a volume is resampled so its longest side has res samples when it has more (0: as it is, full resolution)", 0, math.MaxInt)
	cliflag.Float(fs, &f.iso, "iso", 0, "isovalue (default: the field's own; for -volume the middle of the volume's value range)", cliflag.Float32)
	cliflag.Int(fs, &f.width, "width", 512, "image width in pixels", 1, raster.MaxImageSize)
	cliflag.Int(fs, &f.height, "height", 512, "image height in pixels", 1, raster.MaxImageSize)
	fs.StringVar(&f.colour, "color", hexColour(rasterizer.DefaultMaterial.Base), "the surface's colour, #rrggbb")
	fs.StringVar(&f.background, "background", hexColour(rasterizer.DefaultMaterial.Background), "the background's colour, #rrggbb or #rrggbbaa")
	fs.BoolVar(&f.flat, "flat", false, "flat shading: one normal per triangle (default: the surface's vertex normals)")
	fs.StringVar(&f.views, "views", "(0,0)", "cameras, separated by commas (or semicolons or spaces) outside parentheses: "+view.Usage+`, or "all" for the paper's four`)
	fs.StringVar(&f.out, "out", ".", "folder for the PNG files, image-VIEW.png")
	fs.Usage = usageFor(fs, "image", imageHelp)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	bad := func(err error) (*imageFlags, error) { return nil, fmt.Errorf("bench image: %w", err) }
	if f.volume != "" && f.mesh != "" {
		return bad(fmt.Errorf("-mesh and -volume exclude each other"))
	}
	if (f.volume != "" || f.mesh != "") && f.given("field") {
		return bad(fmt.Errorf("-field and -%s exclude each other", map[bool]string{true: "volume", false: "mesh"}[f.volume != ""]))
	}
	if f.mesh != "" && (f.given("iso") || f.given("res")) {
		return bad(fmt.Errorf("-mesh takes no -iso or -res: a mesh is drawn as it is"))
	}
	if _, err := volume.ByName(f.field); err != nil {
		return bad(cliflag.Errorf("field", f.field, "no such field (have %s)", strings.Join(fieldNames(), ", ")))
	}
	for _, in := range []struct{ name, path string }{{"volume", f.volume}, {"mesh", f.mesh}} {
		if in.path != "" {
			if err := cliflag.CheckInFile(in.name, in.path); err != nil {
				return bad(err)
			}
		}
	}
	var err error
	if f.viewList, err = view.ParseList(f.views); err != nil {
		return bad(cliflag.Errorf("views", f.views, "%v", err))
	}
	f.material = rasterizer.DefaultMaterial
	if f.material.Base, err = parseColour(f.colour, false); err != nil {
		return bad(cliflag.Errorf("color", f.colour, "%v", err))
	}
	if f.material.Background, err = parseColour(f.background, true); err != nil {
		return bad(cliflag.Errorf("background", f.background, "%v", err))
	}
	if f.flat {
		f.material.Shading = rasterizer.Flat
	}
	if err := cliflag.CheckOutDir("out", f.out); err != nil {
		return bad(err)
	}
	if f.res == 1 {
		return bad(cliflag.Errorf("res", "1", "a grid of 1 sample has no cells: want 0 or at least 2"))
	}
	return f, nil
}

// hexColour is c as #rrggbb, or #rrggbbaa when it is not opaque.
func hexColour(c color.RGBA) string {
	if c.A == 255 {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("#%02x%02x%02x%02x", c.R, c.G, c.B, c.A)
}

// parseColour reads #rrggbb (or rrggbb), and #rrggbbaa where alpha is
// allowed.
func parseColour(s string, alpha bool) (color.RGBA, error) {
	h := strings.TrimPrefix(s, "#")
	if len(h) != 6 && !(alpha && len(h) == 8) {
		if alpha {
			return color.RGBA{}, fmt.Errorf("want #rrggbb or #rrggbbaa in hexadecimal")
		}
		return color.RGBA{}, fmt.Errorf("want #rrggbb in hexadecimal")
	}
	if len(h) == 6 {
		h += "ff"
	}
	n, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.RGBA{}, fmt.Errorf("%q is not hexadecimal", h)
	}
	return color.RGBA{R: uint8(n >> 24), G: uint8(n >> 16), B: uint8(n >> 8), A: uint8(n)}, nil
}

func runImage(args []string, w io.Writer) error {
	start := time.Now()
	f, err := parseImage(args)
	if err != nil {
		return err
	}
	// The input is read before the GL context is made: a bad file is
	// refused without a driver.
	m, orbit, what, err := f.surface(w, start)
	if err != nil {
		return fmt.Errorf("bench image: %w", err)
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	d, err := picture.New(c, picture.Options{Width: f.width, Height: f.height, Material: f.material})
	if err != nil {
		return fmt.Errorf("bench image: %w", err)
	}
	defer d.Delete()
	fmt.Fprintf(w, "image on %s: %s\n", c.Caps().Renderer, what)
	_, err = d.Draw(m, orbit, f.viewList, func(i int, img *image.RGBA) error {
		var b bytes.Buffer
		if err := rasterizer.WritePNG(&b, img); err != nil {
			return err
		}
		path := filepath.Join(f.out, "image-"+slug(f.viewList[i].Name)+".png")
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("-out %s: %w", f.out, err)
		}
		fmt.Fprintf(w, "wrote %s (%dx%d, view %s) %s after the command started\n", path, f.width, f.height, f.viewList[i].Name, fmtSeconds(time.Since(start)))
		return nil
	})
	if err != nil {
		return fmt.Errorf("bench image: %w", err)
	}
	return nil
}

func fmtSeconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// surface reads the mesh, or reads or samples the volume and extracts its
// isosurface; what says what it is in one line.
func (f *imageFlags) surface(w io.Writer, start time.Time) (m *mesh.Mesh, orbit view.Frame, what string, err error) {
	if f.mesh != "" {
		if m, err = readMesh(f.mesh); err != nil {
			return nil, orbit, "", fmt.Errorf("-mesh %s: %w", f.mesh, err)
		}
		if m.Len() == 0 {
			return nil, orbit, "", fmt.Errorf("-mesh %s: no triangles", f.mesh)
		}
		return m, orbit, fmt.Sprintf("mesh %s, %d triangles", f.mesh, m.Len()), nil
	}
	var v *volume.Volume
	var iso float32
	var name string
	if f.volume != "" {
		if v, _, err = volume.LoadNIfTI(f.volume); err != nil {
			return nil, orbit, "", fmt.Errorf("-volume %s: %w", f.volume, err)
		}
		if d := v.Dims; min(d[0], d[1], d[2]) < 2 {
			return nil, orbit, "", fmt.Errorf("-volume %s: a side of 1 sample (%dx%dx%d): no cells to extract a surface from", f.volume, d[0], d[1], d[2])
		}
		if iso, err = v.DefaultIso(); err != nil {
			return nil, orbit, "", fmt.Errorf("-volume %s: %w", f.volume, err)
		}
		if f.res > 0 && max(v.Dims[0], v.Dims[1], v.Dims[2]) > f.res {
			if v, err = volume.Resample(v, f.res); err != nil {
				return nil, orbit, "", fmt.Errorf("-volume %s -res %d: %w", f.volume, f.res, err)
			}
		}
		name = fmt.Sprintf("%s %dx%dx%d", filepath.Base(f.volume), v.Dims[0], v.Dims[1], v.Dims[2])
	} else {
		fl, _ := volume.ByName(f.field)
		n := f.res
		if n == 0 {
			n = 128
		}
		if v, err = fl.SampleGrid([3]int{n, n, n}); err != nil {
			return nil, orbit, "", fmt.Errorf("-field %s -res %d: %w", fl.Name, n, err)
		}
		iso, name = fl.Iso, fmt.Sprintf("%s %d^3", fl.Name, n)
	}
	if f.given("iso") {
		iso = float32(f.iso)
	}
	if m, orbit, err = picture.Surface(v, iso); err != nil {
		if errors.Is(err, picture.ErrEmpty) {
			lo, hi := v.Range()
			if !f.given("iso") {
				// The isovalue is ours: say so, rather than blame a
				// flag the user did not give.
				return nil, orbit, "", fmt.Errorf("%s: the surface at the default isovalue %g is empty (the values run from %g to %g): give -iso", name, iso, lo, hi)
			}
			return nil, orbit, "", cliflag.Errorf("iso", strconv.FormatFloat(f.iso, 'g', -1, 64), "the surface of %s is empty there (its values run from %g to %g)", name, lo, hi)
		}
		return nil, orbit, "", fmt.Errorf("%s: %w", name, err)
	}
	frame := "y up"
	if v.RAS {
		frame = "RAS+, superior up"
	}
	return m, orbit, fmt.Sprintf("%s at isovalue %g: %d triangles (%s); cameras in %s", name, iso, m.Len(), fmtSeconds(time.Since(start)), frame), nil
}
