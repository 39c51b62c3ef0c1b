// The user's own header, found beside the kernel before dpgl's tree.
uniform uint stride;
uniform uint offset;

uint affine(uint i) {
    return i * stride + offset;
}
