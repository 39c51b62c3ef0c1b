package pool

import (
	"fmt"
	"math/rand/v2"
)

// AssignRandom is the chapter's static randomized assignment: each task
// goes to a rank drawn uniformly and independently (seeded), so the counts
// vary, as a binomial's do; dst[r] are rank r's tasks, in their order in
// tasks. (balancer's seeded permutation, which gives every lane exactly its
// share, is a different thing: a random order, not a random count.)
func AssignRandom(tasks [][]byte, ranks int, seed uint64) (dst [][][]byte) {
	if ranks < 1 {
		panic(fmt.Sprintf("pool: AssignRandom to %d ranks", ranks))
	}
	rng := rand.New(rand.NewPCG(seed, 0x57a71c))
	dst = make([][][]byte, ranks)
	for _, t := range tasks {
		r := rng.IntN(ranks)
		dst[r] = append(dst[r], t)
	}
	return dst
}
