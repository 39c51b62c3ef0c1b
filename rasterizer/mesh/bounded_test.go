package mesh

import (
	"io"
	"strings"
	"testing"
)

// zeros is an endless stream of zero bytes, as /dev/zero, that counts what
// was read of it.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// TestReadPLYBoundedHeader: a header line without an end (/dev/zero, a
// large file with no newline) is refused after a bounded read, not read
// whole first: on main ReadString read until memory ran out.
func TestReadPLYBoundedHeader(t *testing.T) {
	for _, prefix := range []string{"", "ply\n", "ply\nformat ascii 1.0\ncomment "} {
		z := &zeros{}
		_, err := ReadPLY(io.MultiReader(strings.NewReader(prefix), z))
		if err == nil || !strings.Contains(err.Error(), "PLY") {
			t.Fatalf("prefix %q: err %v, want a PLY error", prefix, err)
		}
		if z.n > 1<<20 {
			t.Fatalf("prefix %q: read %d bytes of zeros before refusing", prefix, z.n)
		}
	}
}
