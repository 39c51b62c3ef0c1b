// The words of the balancer's info buffer, which the gathering passes fill
// with atomics and the host reads back (balancer/gpu.go mirrors them).
// Needs GL_ARB_gpu_shader_int64, enabled by the including kernel.

#define INFO_IDLE 0u          // num_idle
#define INFO_MAX 1u           // MAX(workload)
#define INFO_SUM_LO 2u        // Σ workload, 64 bits in two words
#define INFO_SUM_HI 3u
#define INFO_MIN_ACTIVE 4u    // smallest nonzero workload; starts at 0xFFFFFFFF
#define INFO_MASKED_SUM_LO 5u // sum_workload: Σ workload under act_mask
#define INFO_MASKED_SUM_HI 6u
#define INFO_MASKED 7u        // processors under act_mask
#define INFO_MAX_NEW 8u       // MAX(new_workload_values)
#define INFO_MIN_NEW 9u       // smallest workload after redistribution; starts at 0xFFFFFFFF
#define INFO_ASSIGNED 10u     // Σ assignment
#define INFO_KEPT 11u         // 1: gather.comp PASS 3 kept each assignment
#define INFO_WORDS 12

uint64_t infoPair(uint lo, uint hi) {
    return packUint2x32(uvec2(lo, hi));
}

// addPair adds v to the 64-bit sum held in words lo and hi of a uint array
// with 32-bit atomics: atomicAdd returns the old low word, and the low word
// wrapped exactly when old + low(v) overflows, so the carry goes to hi.
#define ADD_PAIR(arr, lo, hi, v) {                              \
        uvec2 v2_ = unpackUint2x32(v);                          \
        uint old_ = atomicAdd(arr[lo], v2_.x);                  \
        uint carry_ = (old_ + v2_.x < old_) ? 1u : 0u;          \
        if (v2_.y + carry_ != 0u) atomicAdd(arr[hi], v2_.y + carry_); \
    }
