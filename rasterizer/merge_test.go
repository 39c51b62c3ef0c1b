package rasterizer

import (
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/rasterizer/mesh"
	"github.com/dpgl/dpgl/rasterizer/view"
)

// TestResolveMergesLastBatch draws the test scenes on the 32-bit path,
// whole and in batches, with the last batch's keys merged by the resolve
// pass (resolve.comp MERGE) and by a pass of their own: the images, ids
// and visibility words are the same, bit for bit. At an image width that
// is a multiple of 4 every frame folds the merge; at another none does.
func TestResolveMergesLastBatch(t *testing.T) {
	c := gputest.Context(t)
	s := newScanner(t, c)
	for _, size := range [][2]int{{96, 80}, {90, 64}} {
		w, h := size[0], size[1]
		o := DefaultOptions()
		o.Width, o.Height, o.Visibility32 = w, h, true
		fold, err := New(s, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(fold.Delete)
		apart, err := New(s, o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(apart.Delete)
		apart.test.resolveMergeApart = true
		folded := 0
		forScenesInBatches(t, c, w, h, func(label string, m *mesh.GPU, cam view.Camera, batch int) {
			fold.batchTriangles, apart.batchTriangles = batch, batch
			want, err := apart.Render(m, cam)
			if err != nil {
				t.Fatal(err)
			}
			if apart.lastFolded {
				t.Fatalf("%s: the resolve pass merged where it was told not to", label)
			}
			got, err := fold.Render(m, cam)
			if err != nil {
				t.Fatal(err)
			}
			if fold.lastFolded {
				folded++
				if w%4 != 0 {
					t.Fatalf("%s: the resolve pass merged at width %d", label, w)
				}
			} else if w%4 == 0 && got.Spans > 0 {
				t.Fatalf("%s: %d spans, and the resolve pass did not merge at width %d", label, got.Spans, w)
			}
			if got.Setup != want.Setup || got.Pixels != want.Pixels || got.Batches != want.Batches {
				t.Fatalf("%s: frames differ: %+v folded, %+v apart", label, got, want)
			}
			sameFrame(t, fold, apart, w, label, "merged in the resolve pass", "apart")
		})
		if w%4 == 0 && folded == 0 {
			t.Fatalf("width %d: the resolve pass merged in no frame: the test checks nothing", w)
		}
	}
}
