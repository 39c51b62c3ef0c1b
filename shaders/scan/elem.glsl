// The element type T and the operator op of a scan or reduction, chosen by
// TYPE (0 uint, 1 int, 2 float) and OP (0 add, 1 max, 2 min; on integers
// also 3 and, 4 or, 5 xor), and V, what
// the tile code combines: T itself, or for SEGMENTED a (head flag, value)
// pair whose operator restarts at heads.
//
// Values cross the host boundary and scratch buffers as uint bits
// (toBits/fromBits), so that one uniform carries an init value of any T.

#ifndef TYPE
#define TYPE 0
#endif
#ifndef OP
#define OP 0
#endif
#ifndef SEGMENTED
#define SEGMENTED 0
#endif

#if TYPE == 0
#define T uint
#define T4 uvec4
T fromBits(uint b) { return b; }
uint toBits(T v) { return v; }
T lowest() { return 0u; }
T highest() { return 0xFFFFFFFFu; }
#elif TYPE == 1
#define T int
#define T4 ivec4
T fromBits(uint b) { return int(b); }
uint toBits(T v) { return uint(v); }
T lowest() { return int(0x80000000u); }
T highest() { return 0x7FFFFFFF; }
#else
#define T float
#define T4 vec4
T fromBits(uint b) { return uintBitsToFloat(b); }
uint toBits(T v) { return floatBitsToUint(v); }
// The infinities are the true identities of max and min.
T lowest() { return uintBitsToFloat(0xFF800000u); }
T highest() { return uintBitsToFloat(0x7F800000u); }
#endif

#if OP == 0
T ident() { return T(0); }
T op(T a, T b) { return a + b; }
#elif OP == 1
T ident() { return lowest(); }
T op(T a, T b) { return max(a, b); }
#elif OP == 2
T ident() { return highest(); }
T op(T a, T b) { return min(a, b); }
#elif OP == 3
// The bitwise operators, on integers only (package scan refuses floats).
T ident() { return T(0xFFFFFFFFu); }
T op(T a, T b) { return a & b; }
#elif OP == 4
T ident() { return T(0); }
T op(T a, T b) { return a | b; }
#else
T ident() { return T(0); }
T op(T a, T b) { return a ^ b; }
#endif

#if SEGMENTED
// (f, v): f says a segment head lies in the range, v is op over the
// range's elements from its last head on. (a.f,a.v)+(b.f,b.v) keeps a.v
// only when b has no head; the pair operator is associative but not
// commutative, so every combination below keeps earlier ranges on the left.
struct Seg {
    uint f;
    T v;
};
#define V Seg
V vIdent() { return Seg(0u, ident()); }
V comb(V a, V b) { return Seg(a.f | b.f, b.f != 0u ? b.v : op(a.v, b.v)); }
V vOf(T v) { return Seg(0u, v); }
T valOf(V a) { return a.v; }
uint headOf(V a) { return a.f; }
#else
#define V T
V vIdent() { return ident(); }
V comb(V a, V b) { return op(a, b); }
V vOf(T v) { return v; }
T valOf(V a) { return a; }
uint headOf(V a) { return 0u; }
#endif
