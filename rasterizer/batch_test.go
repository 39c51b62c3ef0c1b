package rasterizer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/raster"
)

// uploadSoupBlocks is uploadSoup into a chain of blocks of at most block
// triangles, as mesh.UploadBlocks splits a mesh larger than one storage
// block.
func uploadSoupBlocks(t *testing.T, c *gpu.Context, soup [][3]float32, block int) *mesh.GPU {
	var head, tail *mesh.GPU
	for first := 0; first < len(soup)/3; first += block {
		g := uploadSoup(t, c, soup[3*first:3*min(first+block, len(soup)/3)])
		if head == nil {
			head = g
		} else {
			tail.Next = g
		}
		tail = g
	}
	// uploadSoup's cleanups free each block: unlink them so that none is
	// freed twice through the chain.
	t.Cleanup(func() {
		for b := head; b != nil; {
			next := b.Next
			b.Next = nil
			b = next
		}
	})
	return head
}

// TestRenderBatches draws the reference scene unbatched, from a mesh of
// several blocks, in small batches, and in batches that the storage limits
// force (shrunk so that the batch search runs): under every policy and
// both visibility paths the primitive ids equal the CPU reference's and
// the images the unbatched one's, bit for bit, and the setup statistics
// add up. The 32-bit path runs its one pass, its two-pass fallback (forced
// by a limit on the keys), and both in one frame; the two-pass path's ids
// are stale without the depth pass clearing them where a later batch comes
// nearer.
func TestRenderBatches(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	const w, h = 96, 80
	r := gputest.Rand(t)
	soup := append(randomSoup(r, 600), sphereSoup(12, 24)...)
	whole := uploadSoup(t, c, soup)
	blocks := uploadSoupBlocks(t, c, soup, 250)
	if blocks.Len() != len(soup)/3 || len(blocks.Blocks()) != (len(soup)/3+249)/250 {
		t.Fatalf("blocks: %d triangles in %d blocks", blocks.Len(), len(blocks.Blocks()))
	}
	cam := testViewCamera(w, h)
	mvp := cam.MVP()
	tris, cst := raster.SetupMesh(&mvp, soup, w, h)
	ref := raster.Rasterize(tris, w, h)

	type variant struct {
		name               string
		m                  *mesh.GPU
		batch              int
		maxSetup, maxSpans int
		maxKeys            int // the 32-bit path's keys: a batch that needs more falls back to the id pass
	}
	variants := []variant{
		{"unbatched", whole, 0, 0, 0, 0},
		{"blocks of 250, batches of 111", blocks, 111, 0, 0, 0},
		{"set-up limit 250", whole, 0, 250, 0, 0},
		{"span limit 2000", blocks, 0, 0, 2000, 0},
		{"batches of 111, some over a key limit of 1500", blocks, 111, 0, 0, 1500},
		{"unbatched over a key limit of 1", whole, 0, 0, 0, 1},
	}
	forVisibilityPaths(t, c, func(vis32 bool, test testOptions) {
		for _, pol := range balancer.Policies {
			var first []uint32
			for _, v := range variants {
				o := DefaultOptions()
				o.Width, o.Height, o.Visibility32 = w, h, vis32
				o.ScanConversion = quiet(balancer.Config{Policy: pol})
				o.ZBuffer = quiet(balancer.Config{Policy: pol})
				rd, err := newRenderer(s, o, test)
				if err != nil {
					t.Fatal(err)
				}
				rd.batchTriangles = v.batch
				if v.maxSetup > 0 {
					rd.maxSetup = v.maxSetup
				}
				if v.maxSpans > 0 {
					rd.maxSpans = v.maxSpans
				}
				rd.maxKeyWords = v.maxKeys
				st, err := rd.Render(v.m, cam)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s %s %s", pol, st.Visibility, v.name)
				if st.Setup != cst {
					t.Fatalf("%s: setup stats %+v, CPU %+v", name, st.Setup, cst)
				}
				if (st.Batches > 1) != !strings.HasPrefix(v.name, "unbatched") {
					t.Fatalf("%s: %d batches", name, st.Batches)
				}
				if st.Spans == 0 || st.Pixels == 0 || st.ZBuffer.Iterations == 0 {
					t.Fatalf("%s: %d spans, %d pixels, z-buffer %+v", name, st.Spans, st.Pixels, st.ZBuffer)
				}
				got := rd.Prims()
				for i := range got {
					if got[i] != ref.Prim[i] {
						t.Fatalf("%s (%d batches): pixel (%d,%d) has primitive %d, the CPU reference %d", name, st.Batches, i%w, i/w, got[i], ref.Prim[i])
					}
				}
				img := rd.Pixels()
				if first == nil {
					first = img
				} else if !slices.Equal(img, first) {
					t.Fatalf("%s: the image differs from the unbatched one", name)
				}
				rd.Delete()
			}
		}
	})
}

// TestGrowUpToStorageBlock: a buffer grows to the full storage block
// (the quarter to spare given up where it would not fit), and no further.
// Without the cap, a batch of 2.06 million set-up triangles asked for 2.57
// million and failed on llvmpipe.
func TestGrowUpToStorageBlock(t *testing.T) {
	c := gputest.Context(t)
	most := int(c.Caps().MaxSSBOSize / int64(unsafe.Sizeof(span{})))
	var b *gpu.Buffer[span]
	defer func() { b.Delete() }()
	for _, n := range []int{10, most - most/8, most} {
		if err := grow(c, &b, n, "spans"); err != nil {
			t.Fatalf("grow to %d of %d: %v", n, most, err)
		}
		if b.Len() < n || b.Len() > most {
			t.Fatalf("grow to %d of %d: %d elements", n, most, b.Len())
		}
	}
	if err := grow(c, &b, most+1, "spans"); err == nil {
		t.Fatalf("grow past the storage block (%d of %d) succeeded", most+1, most)
	}
}
