// ordered maps a key's bits (TYPE of elem.glsl: 0 uint, 1 int, 2 float) to
// a uint whose unsigned order is the key's order, the total order of
// package radix: int by flipping the sign bit; float by flipping the sign
// bit of positives and every bit of negatives (-Inf < ... < -0 < +0 < ...
// < +Inf), and every NaN, whatever its sign and payload, to the top.
// The searches and merges order keys so, which makes every input a total
// order (NaN included) and their outputs a function of it.

uint ordered(uint b) {
#if TYPE == 1
    return b ^ 0x80000000u;
#elif TYPE == 2
    if ((b & 0x7FFFFFFFu) > 0x7F800000u) {
        return 0xFFFFFFFFu;
    }
    return b ^ ((b >> 31) != 0u ? 0xFFFFFFFFu : 0x80000000u);
#else
    return b;
#endif
}
