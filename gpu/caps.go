package gpu

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// GL_KHR_shader_subgroup enums, which go-gl's 4.5 core profile lacks.
const (
	glSubgroupSize              = 0x9532
	glSubgroupSupportedStages   = 0x9533
	glSubgroupSupportedFeatures = 0x9534
	glComputeShaderBit          = 0x20
)

// Subgroup feature bits (GL_KHR_shader_subgroup), as Caps.SubgroupFeatures
// holds them.
const (
	SubgroupBasic      = 0x01
	SubgroupVote       = 0x02
	SubgroupArithmetic = 0x04
	SubgroupBallot     = 0x08
	SubgroupShuffle    = 0x10
	SubgroupShuffleRel = 0x20
	SubgroupClustered  = 0x40
	SubgroupQuad       = 0x80
)

// Caps are the capabilities of a context that kernels choose their paths by.
type Caps struct {
	Platform    string // how the context was made: "EGL device 0", "EGL surfaceless", "GLFW window"
	Vendor      string
	Renderer    string
	Version     string // GL_VERSION, which names the driver
	GLSLVersion string
	Major       int
	Minor       int
	Extensions  []string // sorted

	// Subgroup operations in compute shaders (GL_KHR_shader_subgroup).
	Subgroup         bool
	SubgroupSize     int
	SubgroupFeatures uint32

	Int64    bool // 64-bit integer types in GLSL (GL_ARB_gpu_shader_int64)
	Atomic64 bool // 64-bit atomicMin/atomicMax/... on storage buffers (GL_NV_shader_atomic_int64)
	// Software: a CPU renderer (llvmpipe, softpipe, swrast, or zink over
	// lavapipe, whose renderer string names llvmpipe), which tunes sizes
	// for few "lanes" and no forward-progress guarantees. A hint for speed
	// only: what a driver can do comes from the queries above and below.
	Software  bool
	Timestamp bool // GL_TIMESTAMP counters tick (QueryCounterBits > 0)
	// LoopLimit is the number of iterations after which the driver silently
	// ends an invocation's loops (llvmpipe: 65535, in all its loops), as a
	// probe kernel measures it when the context starts; 0 when a loop of
	// 2^20 iterations ran to its end (GPUs, zink over lavapipe). Kernels
	// whose loops may run longer guard on this, not on Software.
	LoopLimit int
	// LockstepLanes is the most invocations of a work group that the
	// driver runs as one SIMD vector, every statement (its shared-memory
	// accesses lane by lane included) finished for all of them before any
	// starts the next: llvmpipe's vector in 32-bit lanes, which its
	// renderer string states ("llvmpipe (LLVM 15.0.6, 256 bits)": 8; it
	// takes at most 16), and 0 on every other driver. A kernel built for a
	// group of at most that many may leave out the barriers that only
	// order its invocations' shared-memory accesses, each of which costs
	// llvmpipe a suspension of the vector's coroutine, its live values
	// stored and loaded back. The one capability taken from a name: no
	// query reports it, and a probe that passed could pass by chance on a
	// GPU, whose groups need their barriers.
	LockstepLanes int

	MaxWorkGroupCount       [3]int
	MaxWorkGroupSize        [3]int
	MaxWorkGroupInvocations int
	MaxSharedMemory         int   // bytes of shared memory per work group
	MaxSSBOSize             int64 // bytes in one shader storage block
	MaxSSBOBindings         int
	SSBOOffsetAlignment     int
}

// HasExtension reports whether the context offers the named extension.
func (c *Caps) HasExtension(name string) bool {
	i := sort.SearchStrings(c.Extensions, name)
	return i < len(c.Extensions) && c.Extensions[i] == name
}

// HasSubgroup reports whether compute shaders have all of the given subgroup
// features (a mask of Subgroup* bits).
func (c *Caps) HasSubgroup(features uint32) bool {
	return c.Subgroup && c.SubgroupFeatures&features == features
}

func (c *Caps) String() string {
	sg := "no subgroups"
	if c.Subgroup {
		sg = fmt.Sprintf("subgroup size %d (features 0x%x)", c.SubgroupSize, c.SubgroupFeatures)
	}
	loops := "loops run to the end"
	if c.LoopLimit > 0 {
		loops = fmt.Sprintf("loops cut at %d iterations", c.LoopLimit)
	}
	if c.LockstepLanes > 0 {
		loops += fmt.Sprintf(", %d invocations in lockstep", c.LockstepLanes)
	}
	return fmt.Sprintf("%s | OpenGL %s | %s | %s, 64-bit atomics %v, %s, max SSBO %d MiB, max groups %d",
		c.Renderer, c.Version, c.Platform, sg, c.Atomic64, loops, c.MaxSSBOSize>>20, c.MaxWorkGroupCount[0])
}

func glString(name uint32) string {
	p := gl.GetString(name)
	if p == nil {
		return ""
	}
	return gl.GoStr(p)
}

func readCaps(platform string) Caps {
	c := Caps{
		Platform:    platform,
		Vendor:      glString(gl.VENDOR),
		Renderer:    glString(gl.RENDERER),
		Version:     glString(gl.VERSION),
		GLSLVersion: glString(gl.SHADING_LANGUAGE_VERSION),
	}
	geti := func(p uint32) int {
		var v int32
		gl.GetIntegerv(p, &v)
		return int(v)
	}
	c.Major, c.Minor = geti(gl.MAJOR_VERSION), geti(gl.MINOR_VERSION)
	n := geti(gl.NUM_EXTENSIONS)
	for i := 0; i < n; i++ {
		c.Extensions = append(c.Extensions, gl.GoStr(gl.GetStringi(gl.EXTENSIONS, uint32(i))))
	}
	sort.Strings(c.Extensions)
	for i := uint32(0); i < 3; i++ {
		var v int32
		gl.GetIntegeri_v(gl.MAX_COMPUTE_WORK_GROUP_COUNT, i, &v)
		c.MaxWorkGroupCount[i] = int(v)
		gl.GetIntegeri_v(gl.MAX_COMPUTE_WORK_GROUP_SIZE, i, &v)
		c.MaxWorkGroupSize[i] = int(v)
	}
	c.MaxWorkGroupInvocations = geti(gl.MAX_COMPUTE_WORK_GROUP_INVOCATIONS)
	c.MaxSharedMemory = geti(gl.MAX_COMPUTE_SHARED_MEMORY_SIZE)
	var ssbo int64
	gl.GetInteger64v(gl.MAX_SHADER_STORAGE_BLOCK_SIZE, &ssbo)
	c.MaxSSBOSize = ssbo
	c.MaxSSBOBindings = geti(gl.MAX_SHADER_STORAGE_BUFFER_BINDINGS)
	c.SSBOOffsetAlignment = geti(gl.SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT)
	if c.HasExtension("GL_KHR_shader_subgroup") {
		stages := geti(glSubgroupSupportedStages)
		if stages&glComputeShaderBit != 0 {
			c.Subgroup = true
			c.SubgroupSize = geti(glSubgroupSize)
			c.SubgroupFeatures = uint32(geti(glSubgroupSupportedFeatures))
		}
	}
	glError() // the subgroup queries are invalid enums on drivers without them
	c.Int64 = c.HasExtension("GL_ARB_gpu_shader_int64")
	c.Atomic64 = c.Int64 && c.HasExtension("GL_NV_shader_atomic_int64")
	r := strings.ToLower(c.Renderer)
	c.Software = strings.Contains(r, "llvmpipe") || strings.Contains(r, "softpipe") || strings.Contains(r, "swrast")
	c.LockstepLanes = lockstepLanes(c.Renderer)
	var bits int32
	gl.GetQueryiv(gl.TIMESTAMP, gl.QUERY_COUNTER_BITS, &bits)
	c.Timestamp = bits > 0
	return c
}

// llvmpipeRenderer is llvmpipe's own renderer string, with its vector
// width; zink over lavapipe names it inside its own, which this leaves out.
var llvmpipeRenderer = regexp.MustCompile(`^llvmpipe \(LLVM [^(),]*, (\d+) bits\)$`)

// lockstepLanes is Caps.LockstepLanes for renderer string r: llvmpipe's
// vector width over 32 bits, at most 16 (the lanes its compute shaders
// take), 0 for any other renderer.
func lockstepLanes(r string) int {
	m := llvmpipeRenderer.FindStringSubmatch(r)
	if m == nil {
		return 0
	}
	bits, err := strconv.Atoi(m[1])
	if err != nil {
		return 0
	}
	return min(bits/32, 16)
}
