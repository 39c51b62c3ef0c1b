package balancer

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dpgl/dpgl/balancer/synthetic"
	"github.com/dpgl/dpgl/gpu/gputest"
)

// BenchmarkLoopGPU runs the synthetic kernel (MODE 1) on a Zipf workload
// of 16384 processors under the paper's three policies, one iteration a
// dispatch (Batch 1, the loop before batching) and batched (the default):
// compare each pair in one run. Iterations and balances are the same in
// both (TestRunsUnchangedGPU).
func BenchmarkLoopGPU(b *testing.B) {
	c := gputest.Context(b)
	const p = 16384
	w := synthetic.Workload(synthetic.Zipf, p, 512, rand.New(rand.NewPCG(1, 2)))
	sol := newSynthetic(b, c, p)
	l, err := NewLoop[uint32](scanner(b), Config{Logf: func(string, ...any) {}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(l.Delete)
	for _, pol := range []Policy{Never, CostEffective, Bounded} {
		for _, batch := range []int{1, 0} {
			b.Run(fmt.Sprintf("%v/batch=%d", pol, batch), func(b *testing.B) {
				if err := l.SetConfig(Config{Policy: pol, CostIterations: 16, Batch: batch, Logf: func(string, ...any) {}}); err != nil {
					b.Fatal(err)
				}
				var st Stats
				for i := 0; i < b.N; i++ {
					if err := l.Load(w, nil, problems(p)); err != nil {
						b.Fatal(err)
					}
					if st, err = l.Run(sol); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(st.Iterations), "iterations")
				b.ReportMetric(float64(st.Balances), "balances")
				b.ReportMetric(float64(st.Dispatches), "dispatches")
			})
		}
	}
}
