package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// pathName names the kernel path a plan ran, for gputest.Ran: the path,
// segmented or not, and the work-group code, with its subgroups per group.
func pathName(p scan.Plan, groupSize int, segmented bool) string {
	name := p.Path.String()
	if segmented {
		name += " segmented"
	}
	switch {
	case !p.Subgroups:
		return name + ", shared memory"
	case p.Emulated:
		return fmt.Sprintf("%s, emulated subgroup(%d) x %d per group", name, p.SubgroupSize, groupSize/p.SubgroupSize)
	}
	return fmt.Sprintf("%s, driver subgroup(%d) x %d per group", name, p.SubgroupSize, groupSize/p.SubgroupSize)
}

// TestMain lists the paths the tests ran; under DPGL_EXPECT_SUBGROUPS=1 the
// driver's own subgroup kernels must have run, plain and segmented, on both
// paths, with two subgroups per work group (configs' tiles of 8 subgroups'
// width).
func TestMain(m *testing.M) {
	gputest.Main(m, func(cp *gpu.Caps) []string {
		if !gputest.ExpectSubgroups() {
			return nil
		}
		var want []string
		for _, path := range []scan.Path{scan.PathReduceThenScan, scan.PathLookBack} {
			p := scan.Plan{Path: path, Subgroups: true, SubgroupSize: cp.SubgroupSize}
			want = append(want, pathName(p, 2*cp.SubgroupSize, false))
			if cp.HasSubgroup(gpu.SubgroupShuffleRel) { // segmented scans need shuffles
				want = append(want, pathName(p, 2*cp.SubgroupSize, true))
			}
		}
		return want
	})
}
