// transformPoint is raster.Transform (raster/clip.go): m * (p, 1) in
// float32 ops in one order, the same bits in every kernel that includes it
// (raster.glsl's transform and clipping; shaderecord.glsl's shading
// records, which the setup passes and the shading compute from the same
// vertices).

vec4 transformPoint(mat4 m, vec3 p) {
    precise vec4 r;
    for (int i = 0; i < 4; i++) {
        precise float a = m[0][i] * p.x;
        precise float b = m[1][i] * p.y;
        precise float c = m[2][i] * p.z;
        r[i] = ((a + b) + c) + m[3][i];
    }
    return r;
}
