#version 450
// relax: the solution phase of one frontier round of Moore's shortest-path
// algorithm (package balancer/sssp), a balancer loop. A processor is a
// frontier vertex v (its problem), its workload v's out-degree, its tasks
// v's edges (parallelIndex starts at v's first edge, so a task is an edge
// index). Solving edge e = (v, u, w) is Moore's step
//     dist[u] = min(dist[u], dist[v] + w)
// with atomicMin; a vertex whose distance dropped joins the next frontier
// once (inNext[u] 0 -> 1), appended through counts[0].
//
// dist[v] may be lowered by another invocation during the dispatch: any
// value read is a length of some path to v, and if it dropped, v is on the
// next frontier and examined again, as Moore's queue would.
//
// lint: WG_SIZE=128

#ifndef WG_SIZE
#define WG_SIZE 64
#endif

layout(local_size_x = WG_SIZE) in;
#define BALANCER_PROBLEM uint
#include "balancer/loop.glsl"

#define UNREACHED 0xFFFFFFFFu

layout(std430, binding = 3) coherent buffer Dist { uint dist[]; };
layout(std430, binding = 4) readonly restrict buffer Edges { uvec2 edges[]; }; // (target, weight)
layout(std430, binding = 5) coherent buffer InNext { uint inNext[]; };
layout(std430, binding = 6) writeonly restrict buffer Next { uint next[]; };
layout(std430, binding = 7) coherent buffer Counts { uint counts[]; }; // next frontier size, overflows

void balancerSolve(uint processor, uint v, uint e) {
    uvec2 edge = edges[e];
    uint dv = dist[v]; // v was reached: finite
    uint nd = dv + edge.y;
    if (nd < dv || nd == UNREACHED) {
        atomicAdd(counts[1], 1u); // a distance past 32 bits
        return;
    }
    uint old = atomicMin(dist[edge.x], nd);
    if (nd < old && atomicExchange(inNext[edge.x], 1u) == 0u) {
        next[atomicAdd(counts[0], 1u)] = edge.x;
    }
}
