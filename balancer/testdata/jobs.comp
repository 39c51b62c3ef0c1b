#version 450
// A user's solution kernel, built with gpu.Context.UserProgramFile: a
// processor's problem is a Job, and its tasks are the job's slots of a
// table of hits; solving a task adds the job's mark to its slot. Every slot
// ends up holding its job's mark exactly once when every task was solved
// exactly once, under any policy and strategy of the balancer.
layout(local_size_x = 64) in;

// The std430 twin of the Go type job{Mark, First uint32}: 8 bytes.
struct Job {
    uint mark;  // what the job's tasks add to their slots
    uint first; // the job's first slot in hits
};
#define BALANCER_PROBLEM Job
#include "balancer/loop.glsl" // dpgl's: bindings 0-2 and main()

layout(std430, binding = BALANCER_FIRST_FREE_BINDING) restrict buffer Hits { uint hits[]; };

// Task numbers start at each processor's parallelIndex (0 here) and count
// up; under a strategy, tasks of one job run at once on several
// invocations, so the add is atomic.
void balancerSolve(uint processor, Job job, uint task) {
    atomicAdd(hits[job.first + task], job.mark);
}
