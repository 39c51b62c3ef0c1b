package shaders

import "embed"

// FS is the shader tree.
//
//go:embed */*.glsl */*.comp */*.vert */*.frag
var FS embed.FS
