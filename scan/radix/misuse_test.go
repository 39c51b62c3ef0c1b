package radix_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan/radix"
)

func TestMisuse(t *testing.T) {
	c := gputest.Context(t)
	s := newSorter(t, c, config{})
	buf := func(n int) *gpu.Buffer[uint32] { return upload(t, c, make([]uint32, n)) }
	a, b, six := buf(5), buf(5), buf(6)
	A := func(x *gpu.Buffer[uint32]) gpu.Array[uint32] { return x }
	var o radix.Order

	gputest.MustPanic(t, "radix: SortKeys: s is nil", func() { radix.SortKeys(nil, A(a), A(b), o) })
	gputest.MustPanic(t, "radix: SortKeys: keys is nil", func() { radix.SortKeys(s, nil, A(b), o) })
	gputest.MustPanic(t, "radix: SortKeys: tmp is nil", func() { radix.SortKeys(s, A(a), A((*gpu.Buffer[uint32])(nil)), o) })
	gputest.MustPanic(t, "radix: SortKeys: tmp is nil", func() { radix.SortKeys(s, A(a), gpu.Range[uint32]{}, o) })
	gputest.MustPanic(t, "radix: SortKeys: tmp has 6 elements but keys has 5", func() { radix.SortKeys(s, A(a), A(six), o) })
	gputest.MustPanic(t, "radix: SortKeys: keys and tmp overlap", func() { radix.SortKeys(s, A(a), A(a), o) })
	big := buf(64)
	gputest.MustPanic(t, "radix: SortKeys: keys and tmp overlap", func() {
		radix.SortKeys(s, gpu.Array[uint32](big.Slice(0, 16)), gpu.Array[uint32](big.Slice(8, 16)), o)
	})
	if al := c.Caps().SSBOOffsetAlignment; al > 4 {
		gputest.MustPanic(t, "radix: SortKeys: keys starts at byte offset 4, not a multiple", func() {
			radix.SortKeys(s, gpu.Array[uint32](big.Slice(1, 8)), gpu.Array[uint32](big.Slice(32, 8)), o)
		})
	}
	for _, r := range [][2]int{{-1, 8}, {0, 33}, {8, 8}, {9, 8}, {32, 0}} {
		gputest.MustPanic(t, fmt.Sprintf("radix: SortKeys: bit range [%d, %d) is not a nonempty range of 0..32", r[0], r[1]), func() {
			radix.SortKeys(s, A(a), A(b), radix.Order{Begin: r[0], End: r[1]})
		})
	}
	dead := buf(5)
	dead.Delete()
	gputest.MustPanic(t, "radix: SortKeys: keys was deleted", func() { radix.SortKeys(s, A(dead), A(b), o) })
	other, err := gpu.NewHeadless()
	if err == nil {
		ob, _ := gpu.NewBuffer[uint32](other, 5)
		gputest.MustPanic(t, "radix: SortKeys: tmp belongs to another gpu.Context than the Sorter", func() { radix.SortKeys(s, A(a), A(ob), o) })
		ob.Delete()
		other.Delete()
	}

	v, tv := buf(5), buf(5)
	gputest.MustPanic(t, "radix: SortPairs: vals has 6 elements but keys has 5", func() { radix.SortPairs(s, A(a), A(b), A(six), A(tv), o) })
	gputest.MustPanic(t, "radix: SortPairs: tmpVals has 6 elements but keys has 5", func() { radix.SortPairs(s, A(a), A(b), A(v), A(six), o) })
	gputest.MustPanic(t, "radix: SortPairs: keys and vals overlap", func() { radix.SortPairs(s, A(a), A(b), A(a), A(tv), o) })
	gputest.MustPanic(t, "radix: SortPairs: tmpKeys and tmpVals overlap", func() { radix.SortPairs(s, A(a), A(b), A(v), A(b), o) })
	odd := upload(t, c, make([][3]uint16, 5))
	gputest.MustPanic(t, "radix: SortPairs: value type [3]uint16 has 6 bytes, not a multiple of 4", func() {
		radix.SortPairs(s, A(a), A(b), gpu.Array[[3]uint16](odd), gpu.Array[[3]uint16](odd), o)
	})

	for _, bad := range []struct {
		want string
		opt  radix.Options
	}{
		{"o.Path 7 is not a Path", radix.Options{Path: 7}},
		{"o.DigitBits 9 is not in 1..8", radix.Options{DigitBits: 9}},
		{"o.GroupSize 48 is not a power of two", radix.Options{GroupSize: 48}},
		{"o.Items 6 is not a multiple of 4", radix.Options{Items: 6}},
		{"a tile of o.GroupSize*o.Items = 65536 keys exceeds 32768", radix.Options{GroupSize: 64, Items: 1024}},
	} {
		gputest.MustPanic(t, "radix: NewWithOptions: "+bad.want, func() { radix.NewWithOptions(c, bad.opt) })
	}

	s2, err := radix.New(c)
	if err != nil {
		t.Fatal(err)
	}
	s2.Delete()
	gputest.MustPanic(t, "radix: SortKeys: s was deleted", func() { radix.SortKeys(s2, A(a), A(b), o) })
	gputest.MustPanic(t, "radix: New: c is nil", func() { radix.New(nil) })

	// Length 0 and nothing to do are not misuse.
	if err := radix.SortKeys(s, gpu.Array[uint32](big.Slice(0, 0)), gpu.Array[uint32](big.Slice(16, 0)), o); err != nil {
		t.Fatal(err)
	}
}
