//go:build mpi

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dpgl/dpgl/balancer/pool"
	"github.com/dpgl/dpgl/balancer/pool/pooltest"
	"github.com/dpgl/dpgl/balancer/sssp"
	"github.com/dpgl/dpgl/internal/mpi"
)

func init() {
	commands["pool"] = command{runPool, "Moore's algorithm across MPI ranks on each work pool and termination detector: tasks per second, messages per task, time from the last task to detected termination (run under mpirun on 1, 2 and 4 ranks)"}
}

type poolFlags struct {
	graphs     []string
	pools      []pool.Balance
	detectors  []pool.Detector
	seed       uint64
	timeout    time.Duration
	failRank   int
	failKind   string
	energy     uint64
	threshold  int
	graphsFlag string
	forests    int
}

func parsePoolFlags(args []string, w io.Writer) (*poolFlags, error) {
	fs := flag.NewFlagSet("pool", flag.ContinueOnError)
	fs.SetOutput(w)
	var f poolFlags
	var pools, detectors, fail string
	fs.StringVar(&f.graphsFlag, "graphs", "grid:24x24,rmat:9:8", "graphs as bench strategies -graphs takes them: rmat:SCALE:EDGEFACTOR, grid:WxH, uniform:VERTICES:EDGES, FILE.gr")
	fs.StringVar(&pools, "pools", "all", "work pools, comma-separated: Centralized, RandomPolling, RoundRobin, SenderInitiated, Static, or all")
	fs.StringVar(&detectors, "detectors", "all", "termination detectors, comma-separated: Acknowledgement, DualPassRing, Tree, FixedEnergy, or all (SinglePassRing and QueueEmpty cannot run Moore's algorithm: a distance goes straight to its owner)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the generated graphs and of random polling")
	fs.DurationVar(&f.timeout, "timeout", 60*time.Second, "a run not ended by then ends the job: a rank stuck or dead")
	fs.Uint64Var(&f.energy, "energy", 0, "FixedEnergy's units (0: 2^62)")
	fs.IntVar(&f.threshold, "threshold", 0, "SenderInitiated's threshold of free tasks (0: 4)")
	fs.IntVar(&f.forests, "forests", 0, "instead of Moore's algorithm, run this many random task forests under the pools and detectors in turn (SinglePassRing too, on Static), checking every task runs once")
	fs.StringVar(&fail, "fail", "", "fault injection for tests: RANK:KIND makes that rank, at its tenth message, fail: KIND one of kill (SIGKILL), hang, error")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("bench pool: unexpected arguments %q", fs.Args())
	}
	for _, g := range strings.Split(f.graphsFlag, ",") {
		if err := stratCheckGraph(g); err != nil {
			return nil, fmt.Errorf("bench pool: -graphs: %v", err)
		}
		f.graphs = append(f.graphs, g)
	}
	if pools == "all" {
		f.pools = pool.Balances()
	} else {
		for _, s := range strings.Split(pools, ",") {
			b, err := pool.ParseBalance(s)
			if err != nil {
				return nil, fmt.Errorf("bench pool: -pools: %v", err)
			}
			f.pools = append(f.pools, b)
		}
	}
	if detectors == "all" {
		f.detectors = []pool.Detector{pool.Acknowledgement, pool.DualPassRing, pool.Tree, pool.FixedEnergy}
	} else {
		for _, s := range strings.Split(detectors, ",") {
			d, err := pool.ParseDetector(s)
			if err == nil && (d == pool.SinglePassRing || d == pool.QueueEmpty) {
				err = fmt.Errorf("%v cannot run Moore's algorithm: a distance goes straight to its vertex's owner (and may wake it again), which it cannot see", d)
			}
			if err != nil {
				return nil, fmt.Errorf("bench pool: -detectors: %v", err)
			}
			f.detectors = append(f.detectors, d)
		}
	}
	if f.forests < 0 {
		return nil, fmt.Errorf("bench pool: -forests %d: want >= 0", f.forests)
	}
	if f.timeout <= 0 {
		return nil, fmt.Errorf("bench pool: -timeout %v: want > 0", f.timeout)
	}
	f.failRank = -1
	if fail != "" {
		rs, kind, ok := strings.Cut(fail, ":")
		r, err := strconv.Atoi(rs)
		if !ok || err != nil || r < 0 || (kind != "kill" && kind != "hang" && kind != "error") {
			return nil, fmt.Errorf("bench pool: -fail %q: want RANK:KIND with KIND kill, hang or error", fail)
		}
		f.failRank, f.failKind = r, kind
	}
	return &f, nil
}

func runPool(args []string, w io.Writer) error {
	if err := mpi.Init(); err != nil {
		return fmt.Errorf("bench pool: %w (run it under mpirun)", err)
	}
	rank, size := mpi.Rank(), mpi.Size()
	if rank != 0 {
		w = io.Discard
	} else {
		// mpirun ends the other ranks with SIGTERM when one dies: say so.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		go func() {
			<-sig
			fmt.Fprintln(os.Stderr, "bench pool: rank 0: terminated by mpirun: another rank died (mpirun names it)")
			os.Exit(4)
		}()
	}
	f, err := parsePoolFlags(args, w)
	if err == nil && f.failRank >= size {
		err = fmt.Errorf("bench pool: -fail rank %d: the job has %d ranks", f.failRank, size)
	}
	if err != nil {
		// Every rank read the same flags and failed alike: rank 0 says so.
		if rank == 0 && !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, err)
		}
		mpi.Finalize()
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		os.Exit(pick(rank == 0, 1, 0))
	}
	tr := pool.NewMPI()
	abort := func(err error) {
		fmt.Fprintf(os.Stderr, "bench pool: rank %d: %v: ending the job\n", rank, err)
		mpi.Abort(3)
	}
	if f.forests > 0 {
		line, err := poolForests(tr, f)
		if err != nil {
			abort(err)
		}
		fmt.Fprintln(w, line)
		f.graphs = nil
	}
	r := rand.New(rand.NewPCG(f.seed, 0x6e7a))
	for _, spec := range f.graphs {
		gr, err := stratParseGraph(spec, r)
		if err != nil {
			abort(err)
		}
		fmt.Fprintf(w, "bench pool: %d ranks, Moore's algorithm on %s (%d vertices, %d edges) from vertex %d\n", size, gr.name, gr.g.N, gr.g.M(), gr.source)
		fmt.Fprintf(w, "%-16s %-16s %9s %10s %9s %12s %s\n", "pool", "detector", "tasks", "tasks/s", "msgs/task", "last->term", "check")
		var want []uint64
		if rank == 0 {
			want = sssp.Dijkstra(gr.g, gr.source)
		}
		for _, b := range f.pools {
			for _, d := range f.detectors {
				row, err := poolRun(tr, f, gr, b, d, want)
				if err != nil {
					abort(err)
				}
				fmt.Fprintln(w, row)
			}
		}
	}
	if err := tr.Close(f.timeout); err != nil {
		abort(err)
	}
	mpi.Finalize()
	return nil
}

// poolRun runs one pool and detector on every rank and returns rank 0's
// row of the table.
func poolRun(tr *pool.MPI, f *poolFlags, gr stratGraph, b pool.Balance, d pool.Detector, want []uint64) (string, error) {
	rank, size := mpi.Rank(), mpi.Size()
	cfg := pool.Config{Balance: b, Detector: d, Seed: f.seed, Timeout: f.timeout, Energy: f.energy, Threshold: f.threshold}
	// All ranks start together: an allgather is the barrier.
	sync := make([]uint64, size)
	if err := mpi.AllgatherUint64([]uint64{0}, sync, f.timeout); err != nil {
		return "", err
	}
	start := time.Now()
	g := gr.g
	var t pool.Transport = tr
	if rank == f.failRank {
		t = &failing{Transport: tr, kind: f.failKind}
	}
	dist, pred, st, err := sssp.MoorePool(t, cfg, g, gr.source)
	if err != nil {
		return "", fmt.Errorf("%v, %v: %w", b, d, err)
	}
	// Per rank: tasks, messages, task messages, the last task's end and
	// (rank 0) the declaration, as wall-clock Unix ns:
	// the ranks of one node share the clock; each one's monotonic clock
	// starts anew.
	since := func(t time.Time) uint64 {
		if t.IsZero() {
			return 0
		}
		return uint64(t.UnixNano())
	}
	mine := []uint64{uint64(st.Tasks), uint64(st.Messages), uint64(st.TaskMessages), since(st.LastTask), since(st.Declared)}
	all := make([]uint64, len(mine)*size)
	if err := mpi.AllgatherUint64(mine, all, f.timeout); err != nil {
		return "", err
	}
	enc := make([]uint64, 2*g.N)
	for v := range dist {
		enc[2*v], enc[2*v+1] = dist[v], uint64(pred[v]+1)
	}
	var got []uint64
	if rank == 0 {
		got = make([]uint64, 2*g.N*size)
	}
	if err := mpi.Gather(enc, got, 0, f.timeout); err != nil {
		return "", err
	}
	if rank != 0 {
		return "", nil
	}
	var tasks, msgs, taskMsgs, last uint64
	for k := 0; k < size; k++ {
		s := all[k*len(mine):]
		tasks += s[0]
		msgs += s[1]
		taskMsgs += s[2]
		last = max(last, s[3])
	}
	declared := all[4]
	begin := uint64(start.UnixNano())
	dists := make([][]uint64, size)
	preds := make([][]int, size)
	for k := 0; k < size; k++ {
		part := got[k*2*g.N : (k+1)*2*g.N]
		dists[k], preds[k] = make([]uint64, g.N), make([]int, g.N)
		for v := 0; v < g.N; v++ {
			dists[k][v], preds[k][v] = part[2*v], int(part[2*v+1])-1
		}
	}
	check := "= Dijkstra, valid tree"
	if err := sssp.CheckTree(gr.g, gr.source, want, sssp.MergeRanks(dists), sssp.MergeRanks(preds)); err != nil {
		return "", fmt.Errorf("%v, %v: %w", b, d, err)
	}
	secs := float64(declared-begin) / 1e9
	return fmt.Sprintf("%-16v %-16v %9d %10.0f %9.2f %12v %s (%d task messages)", b, d, tasks, float64(tasks)/secs,
		float64(msgs)/float64(tasks), time.Duration(int64(declared-last)).Round(time.Microsecond), check, taskMsgs), nil
}

// failing is the fault injection of -fail: at its tenth message sent, the
// rank is killed, hangs or fails, mid-run.
type failing struct {
	pool.Transport
	kind string
	n    int
}

func (t *failing) Send(to int, msg []byte) error {
	if t.n++; t.n == 10 {
		switch t.kind {
		case "kill":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case "hang":
			time.Sleep(time.Hour) // select{} would be a deadlock the runtime reports
		}
		return errors.New("injected failure (-fail)")
	}
	return t.Transport.Send(to, msg)
}

// poolForests runs f.forests random task forests, each under the next pool
// and detector, and returns rank 0's summary; a task run twice or never, or
// counts that disagree, is an error naming the run.
func poolForests(tr *pool.MPI, f *poolFlags) (string, error) {
	rank, size := mpi.Rank(), mpi.Size()
	rng := rand.New(rand.NewPCG(f.seed, 0xf0e5))
	tasks := 0
	for i := 0; i < f.forests; i++ {
		d := pool.Detectors()[i%len(pool.Detectors())]
		b := f.pools[(i/len(pool.Detectors()))%len(f.pools)]
		pinned := 0.2
		switch d {
		case pool.SinglePassRing:
			b, pinned = pool.Static, 0
		case pool.QueueEmpty:
			b, pinned = pool.Centralized, 0
		}
		forest := pooltest.RandomForest(rng, 300, size, pinned)
		cfg := pool.Config{Balance: b, Detector: d, Seed: f.seed + uint64(i), Timeout: f.timeout, Threshold: f.threshold}
		if d == pool.FixedEnergy && i%2 == 0 {
			cfg.Energy = uint64(4*size + 16) // runs out: ranks ask rank 0 for more
		}
		runs := make([]uint64, forest.Len()+1) // the last: tasks created here
		runs[forest.Len()] = uint64(len(forest.Start(size, cfg.Seed)[rank]))
		work := forest.Func(func(id uint32) error { runs[id]++; return nil }, func(c int) { runs[forest.Len()] += uint64(c) })
		sync := make([]uint64, size)
		if err := mpi.AllgatherUint64([]uint64{0}, sync, f.timeout); err != nil {
			return "", err
		}
		if _, err := pool.Run(tr, cfg, forest.Start(size, cfg.Seed)[rank], work); err != nil {
			return "", fmt.Errorf("forest %d (%v, %v): %w", i, b, d, err)
		}
		var all []uint64
		if rank == 0 {
			all = make([]uint64, len(runs)*size)
		}
		if err := mpi.Gather(runs, all, 0, f.timeout); err != nil {
			return "", err
		}
		if rank != 0 {
			continue
		}
		created := uint64(0)
		for id := 0; id <= forest.Len(); id++ {
			n := uint64(0)
			for k := 0; k < size; k++ {
				n += all[k*len(runs)+id]
			}
			if id == forest.Len() {
				created = n
			} else if n != 1 {
				return "", fmt.Errorf("forest %d (%v, %v, %d tasks): task %d ran %d times", i, b, d, forest.Len(), id, n)
			}
		}
		if created != uint64(forest.Len()) {
			return "", fmt.Errorf("forest %d (%v, %v): %d tasks created of %d", i, b, d, created, forest.Len())
		}
		tasks += forest.Len()
	}
	return fmt.Sprintf("bench pool: %d ranks, %d random task forests (%d tasks) under every pool and detector: every task ran once, termination declared each time", size, f.forests, tasks), nil
}
