// Stand-ins for the subgroup operations of tile.glsl and lookback.glsl,
// built from shared memory and barriers, so that the subgroup kernels run
// (and are tested) on drivers without GL_KHR_shader_subgroup, llvmpipe
// among them. Never used for speed.
//
// The whole work group is one subgroup (SG_SIZE must equal WG_SIZE): every
// operation below holds barriers, so all invocations of the group must
// reach it together, and the kernels only call subgroup operations where
// the whole subgroup does. What this leaves untested is the layout with
// several subgroups per group (SG_ID > 0).
//
// Results are those of the built-ins (values pass through shared memory
// as bits). Float additions run from lane 0 up, one order among those the
// built-ins may use.

#if SG_SIZE != WG_SIZE
#error "sgemu.glsl emulates one subgroup per work group: SG_SIZE must equal WG_SIZE"
#endif

#define SG_LANE gl_LocalInvocationIndex
#define SG_ID 0u
#define SG_COUNT 1u
#define SG_WIDTH uint(SG_SIZE)

shared uint sgeIn[WG_SIZE];
shared uint sgeOut[WG_SIZE + 1];

// sgePrefix leaves in sgeOut[k] the op of the values of lanes 0..k-1 (as
// bits) and in sgeOut[WG_SIZE] that of all lanes. The first barrier lets
// every reader of the previous operation's results finish.
void sgePrefix(T v) {
    groupSync();
    sgeIn[SG_LANE] = toBits(v);
    groupSync();
    if (SG_LANE == 0u) {
        T run = ident();
        for (uint k = 0u; k < uint(WG_SIZE); k++) {
            sgeOut[k] = toBits(run);
            run = op(run, fromBits(sgeIn[k]));
        }
        sgeOut[WG_SIZE] = toBits(run);
    }
    groupSync();
}

T sgExclusive(T v) {
    sgePrefix(v);
    return fromBits(sgeOut[SG_LANE]);
}

T sgAll(T v) {
    sgePrefix(v);
    return fromBits(sgeOut[WG_SIZE]);
}

uint sgLastU(uint v) {
    groupSync();
    if (SG_LANE == uint(WG_SIZE - 1)) {
        sgeOut[0] = v;
    }
    groupSync();
    return sgeOut[0];
}

T sgLast(T v) { return fromBits(sgLastU(toBits(v))); }

uint sgMinU(uint v) {
    groupSync();
    sgeIn[SG_LANE] = v;
    groupSync();
    if (SG_LANE == 0u) {
        uint m = sgeIn[0];
        for (uint k = 1u; k < uint(WG_SIZE); k++) {
            m = min(m, sgeIn[k]);
        }
        sgeOut[0] = m;
    }
    groupSync();
    return sgeOut[0];
}

#if SEGMENTED
uint sgUpU(uint v, uint d) {
    groupSync();
    sgeIn[SG_LANE] = v;
    groupSync();
    return SG_LANE >= d ? sgeIn[SG_LANE - d] : v;
}

T sgUpT(T v, uint d) { return fromBits(sgUpU(toBits(v), d)); }
#endif
