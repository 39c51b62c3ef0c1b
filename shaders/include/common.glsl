// Helpers shared by every kernel. Included once per program (gpu.Expand
// implies include guards), after the layout(local_size_x = ...) declaration,
// since GLSL only knows gl_WorkGroupSize from there on.

// dpglGroupIndex is the flat index of this work group in a 1-D dispatch that
// gpu.Context.Grid (Program.Dispatch1D, DispatchInvocations) laid out as x*y
// groups because it exceeded the driver's x limit. Groups with an index at
// or past the real count must return early.
uint dpglGroupIndex() {
    return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
}

// dpglGlobalIndex is the flat invocation index of a 1-D dispatch: a kernel
// run by Program.DispatchInvocations(n) returns when it is n or more.
uint dpglGlobalIndex() {
    return dpglGroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

// dpglCeilDiv is ceil(a / b) for b > 0 without overflow.
uint dpglCeilDiv(uint a, uint b) {
    return a / b + uint(a % b != 0u);
}
