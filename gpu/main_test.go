package gpu_test

import (
	"strconv"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// TestMain lists what the tests ran; under DPGL_EXPECT_SUBGROUPS=1 the
// subgroup layout must have been checked at one subgroup per work group and
// at several.
func TestMain(m *testing.M) {
	gputest.Main(m, func(cp *gpu.Caps) []string {
		if !gputest.ExpectSubgroups() {
			return nil
		}
		sg := strconv.Itoa(cp.SubgroupSize)
		return []string{
			"subgroup layout, driver subgroup(" + sg + ") x 1 per group",
			"subgroup layout, driver subgroup(" + sg + ") x 2 per group",
		}
	})
}
