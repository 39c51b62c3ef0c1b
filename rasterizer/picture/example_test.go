package picture_test

import (
	"fmt"
	"image/png"
	"log"
	"os"
	"path/filepath"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/rasterizer"
	"github.com/dpgl/dpgl/rasterizer/picture"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/rasterizer/volume"
)

// Pictures of a volume's isosurface from three cameras, written as PNG
// files: volume.LoadNIfTI would read a scan in place of the built-in
// torus (and a NIfTI file with an orientation is drawn upright).
func Example() {
	c, err := gpu.NewHeadless()
	if err != nil {
		log.Fatal(err)
	}
	defer c.Delete()
	f := volume.Torus()
	views, err := view.ParseList("(0,0) (45,60) (30,15)x2.5")
	if err != nil {
		log.Fatal(err)
	}
	o := picture.DefaultOptions()
	o.Width, o.Height = 128, 128
	o.Material.Shading = rasterizer.Flat
	imgs, err := picture.Volume(c, f.SampleCube(40), f.Iso, views, o)
	if err != nil {
		log.Fatal(err)
	}
	for i, img := range imgs {
		out, err := os.Create(filepath.Join(os.TempDir(), "torus-"+fmt.Sprint(i)+".png"))
		if err != nil {
			log.Fatal(err)
		}
		if err := png.Encode(out, img); err != nil {
			log.Fatal(err)
		}
		out.Close()
		bg, n := o.Material.Background, 0
		for p := 0; p < len(img.Pix); p += 4 {
			if img.Pix[p] != bg.R || img.Pix[p+1] != bg.G || img.Pix[p+2] != bg.B {
				n++
			}
		}
		fmt.Printf("%s: %d of %d pixels show the surface\n", views[i].Name, n, 128*128)
	}
	// Output:
	// (0,0): 2160 of 16384 pixels show the surface
	// (45,60): 4788 of 16384 pixels show the surface
	// (30,15)x2.5: 12948 of 16384 pixels show the surface
}
