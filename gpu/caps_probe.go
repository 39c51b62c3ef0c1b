package gpu

import (
	"fmt"

	"github.com/go-gl/gl/v4.5-core/gl"

	"github.com/dpgl/dpgl/shaders"
)

// loopProbeIterations is the loop the probe runs: far beyond llvmpipe's
// 65535, and a fraction of a millisecond on any GPU.
const loopProbeIterations = 1 << 20

// probeLoopLimit measures Caps.LoopLimit: it runs shaders/gpu/looplimit.comp
// once, on raw GL so that nothing stays in the context's caches or object
// counts. Which drivers cut loops, and where, is behaviour that no query
// reports and a renderer's name does not tell (zink over lavapipe names
// llvmpipe in its renderer string and cuts nothing).
func probeLoopLimit() (int, error) {
	src, err := Expand(shaders.FS, "gpu/looplimit.comp", nil)
	if err != nil {
		return 0, err
	}
	sh := gl.CreateShader(gl.COMPUTE_SHADER)
	defer gl.DeleteShader(sh)
	cs, free := gl.Strs(src.Text + "\x00")
	gl.ShaderSource(sh, 1, cs, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	if gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok); ok == 0 {
		return 0, fmt.Errorf("compiling gpu/looplimit.comp: %s", shaderLog(sh))
	}
	p := gl.CreateProgram()
	defer gl.DeleteProgram(p)
	gl.AttachShader(p, sh)
	gl.LinkProgram(p)
	if gl.GetProgramiv(p, gl.LINK_STATUS, &ok); ok == 0 {
		return 0, fmt.Errorf("linking gpu/looplimit.comp: %s", programLog(p))
	}
	var buf uint32
	gl.CreateBuffers(1, &buf)
	defer gl.DeleteBuffers(1, &buf)
	out := [2]uint32{}
	gl.NamedBufferData(buf, 8, gl.Ptr(&out[0]), gl.DYNAMIC_READ)
	gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 0, buf)
	gl.UseProgram(p)
	gl.Uniform1ui(gl.GetUniformLocation(p, gl.Str("n\x00")), loopProbeIterations)
	gl.DispatchCompute(1, 1, 1)
	gl.MemoryBarrier(gl.BUFFER_UPDATE_BARRIER_BIT)
	gl.GetNamedBufferSubData(buf, 0, 8, gl.Ptr(&out[0]))
	gl.UseProgram(0)
	gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 0, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		return 0, fmt.Errorf("running gpu/looplimit.comp: GL error 0x%x", e)
	}
	switch n := int(out[0]); {
	case n == loopProbeIterations:
		return 0, nil
	case n > 0 && n < loopProbeIterations:
		return n, nil
	default:
		return 0, fmt.Errorf("gpu/looplimit.comp counted %d iterations of a loop of %d", n, loopProbeIterations)
	}
}
