// Stand-ins for the subgroup operations of tile.glsl and lookback.glsl,
// built from shared memory and barriers, so that the subgroup kernels run
// (and are tested) on drivers without GL_KHR_shader_subgroup, llvmpipe
// among them. Never used for speed.
//
// The group is cut into WG_SIZE/SG_SIZE subgroups of consecutive
// invocations, as drivers do. Every operation below holds group barriers,
// so all invocations of the group must reach it together: the kernels call
// subgroup operations only where every subgroup does, but for code that
// only subgroup 0 runs on real subgroups (SG0_RUNS in tile.glsl: all
// subgroups run it here, and only subgroup 0 stores), and for the
// look-back walk of subgroup 0 (sgWalk), which depends on what the
// subgroup saw in memory and so runs only with one subgroup per group.
//
// Results are those of the built-ins (values pass through shared memory
// as bits). Float additions run from lane 0 up, one order among those the
// built-ins may use.

#if WG_SIZE % SG_SIZE != 0
#error "sgemu.glsl: SG_SIZE must divide WG_SIZE"
#endif

#define SG_LANE (gl_LocalInvocationIndex % uint(SG_SIZE))
#define SG_ID (gl_LocalInvocationIndex / uint(SG_SIZE))
#define SG_COUNT uint(WG_SIZE / SG_SIZE)
#define SG_WIDTH uint(SG_SIZE)
// SG_BASE is the invocation index of this subgroup's lane 0.
#define SG_BASE (SG_ID * uint(SG_SIZE))

shared uint sgeIn[WG_SIZE];
// sgeOut[i]: per invocation i; sgeOut[WG_SIZE + s]: per subgroup s.
shared uint sgeOut[WG_SIZE + WG_SIZE / SG_SIZE];

// sgePrefix leaves in sgeOut[SG_BASE + k] the op of the values of lanes
// 0..k-1 of the subgroup (as bits), and in sgeOut[WG_SIZE + SG_ID] that of
// all its lanes. The first barrier lets every reader of the previous
// operation's results finish.
void sgePrefix(T v) {
    groupSync();
    sgeIn[gl_LocalInvocationIndex] = toBits(v);
    groupSync();
    if (SG_LANE == 0u) {
        T run = ident();
        for (uint k = 0u; k < uint(SG_SIZE); k++) {
            sgeOut[SG_BASE + k] = toBits(run);
            run = op(run, fromBits(sgeIn[SG_BASE + k]));
        }
        sgeOut[WG_SIZE + SG_ID] = toBits(run);
    }
    groupSync();
}

T sgExclusive(T v) {
    sgePrefix(v);
    return fromBits(sgeOut[gl_LocalInvocationIndex]);
}

T sgAll(T v) {
    sgePrefix(v);
    return fromBits(sgeOut[WG_SIZE + SG_ID]);
}

uint sgLastU(uint v) {
    groupSync();
    if (SG_LANE == uint(SG_SIZE - 1)) {
        sgeOut[WG_SIZE + SG_ID] = v;
    }
    groupSync();
    return sgeOut[WG_SIZE + SG_ID];
}

T sgLast(T v) { return fromBits(sgLastU(toBits(v))); }

uint sgMinU(uint v) {
    groupSync();
    sgeIn[gl_LocalInvocationIndex] = v;
    groupSync();
    if (SG_LANE == 0u) {
        uint m = sgeIn[SG_BASE];
        for (uint k = 1u; k < uint(SG_SIZE); k++) {
            m = min(m, sgeIn[SG_BASE + k]);
        }
        sgeOut[WG_SIZE + SG_ID] = m;
    }
    groupSync();
    return sgeOut[WG_SIZE + SG_ID];
}

#if SEGMENTED
uint sgUpU(uint v, uint d) {
    groupSync();
    sgeIn[gl_LocalInvocationIndex] = v;
    groupSync();
    return SG_LANE >= d ? sgeIn[gl_LocalInvocationIndex - d] : v;
}

T sgUpT(T v, uint d) { return fromBits(sgUpU(toBits(v), d)); }
#endif
