// The 32-bit path's merge of a batch's winning tests' keys (zbuffer.comp
// KEYS) into the depth and id buffers: prepare.comp MERGE_KEYS after a
// batch, resolve.comp MERGE as it shades the frame's last. The including
// kernel defines NO_PRIMITIVE first.

layout(std430, binding = BINDING_Z_KEYS) readonly restrict buffer ZKeyPairs { uvec2 zkeyPairs[]; }; // zbuffer.comp's keys
uniform uint keyBase; // even: test j's key is pair keyBase/2 + j
uniform int cleared;  // 1: nothing was merged into the depth and id buffers since they were cleared

// mergeKey is a pixel's (depth, id) dp after its batch's winner j (a
// test's slot, NO_PRIMITIVE for none) is merged in where its key is less.
// Into the cleared buffers the winner goes as it is: every key is at most
// (DEPTH_MAX, id < NO_PRIMITIVE), less than the cleared pair.
uvec2 mergeKey(uint j, uvec2 dp) {
    if (j == NO_PRIMITIVE) {
        return dp;
    }
    uvec2 key = zkeyPairs[keyBase / 2u + j];
    if (cleared != 0 || key.x < dp.x || (key.x == dp.x && key.y < dp.y)) {
        return key;
    }
    return dp;
}
