package pool

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Func runs one task: it reads task (which it must not keep) and hands
// the tasks it makes to out. An error ends this rank's Run with it.
type Func func(task []byte, out *Out) error

// Out collects the tasks a Func makes.
type Out struct {
	free   [][]byte
	pinned map[int][][]byte
	order  []int // the ranks in pinned in the order first sent to
	size   int
}

// Spawn adds a free task: one the pool may run on any rank.
func (o *Out) Spawn(task []byte) { o.free = append(o.free, append([]byte(nil), task...)) }

// Send adds a task that must run on rank (its data live there, as a
// vertex's distance in Moore's algorithm); it is never moved on.
func (o *Out) Send(rank int, task []byte) {
	if rank < 0 || rank >= o.size {
		panic(fmt.Sprintf("pool: Out.Send to rank %d of %d", rank, o.size))
	}
	if o.pinned == nil {
		o.pinned = map[int][][]byte{}
	}
	if _, ok := o.pinned[rank]; !ok {
		o.order = append(o.order, rank)
	}
	o.pinned[rank] = append(o.pinned[rank], append([]byte(nil), task...))
}

// Stats are one rank's counts.
type Stats struct {
	Tasks        int       // tasks this rank ran
	Created      int       // tasks given to this rank's Run plus those its Func made
	TaskMessages int       // messages sent that carried tasks
	Messages     int       // every message sent, control included
	LastTask     time.Time // when this rank's last task ended
	Declared     time.Time // rank 0: when it declared termination
}

type entry struct {
	task   []byte
	pinned bool
}

type outgoing struct {
	to    int
	flags byte
	tasks [][]byte
}

// rank is one rank's pool and detector state.
type rank struct {
	tr   Transport
	cfg  Config
	me   int
	size int
	rng  *rand.Rand

	queue []entry // FIFO: run from the front
	nfree int     // free entries in queue

	rr        int  // round-robin counter
	requested bool // a request is out, unanswered
	backoff   time.Duration
	retryAt   time.Time // no request before
	waiting   []int     // Centralized rank 0: ranks waiting for a task
	toMaster  uint64    // QueueEmpty: task messages sent to rank 0
	fromRank  []uint64  // QueueEmpty, rank 0: task messages from each rank
	askedWith []uint64  // QueueEmpty, rank 0: each waiting rank's toMaster

	unacked int  // task messages sent and not yet acknowledged
	black   bool // DualPassRing, Tree: sent a task since the token or probe passed

	engaged bool // Acknowledgement: in the tree of engaged ranks
	parent  int

	token      bool // DualPassRing, SinglePassRing: holds the token
	tokenBlack bool

	probed     bool // Tree: the wave reached this rank and it has not reported
	reports    int
	childBlack bool

	energy  uint64
	pending []outgoing // FixedEnergy: tasks waiting for a unit to divide
	asked   bool
	askers  []int // rank 0: ranks waiting for energy

	stopped bool
	stats   Stats
}

// Run runs the pool on this rank until termination is declared: every
// rank calls it with the same cfg, each with the tasks it starts with
// (which start on it; under Centralized, too). It returns this rank's
// counts, or the first error: a Func's, the transport's, or Timeout's.
func Run(tr Transport, cfg Config, initial [][]byte, f Func) (Stats, error) {
	me, size := tr.Rank(), tr.Size()
	if err := cfg.check(size); err != nil {
		return Stats{}, err
	}
	r := newRank(tr, cfg, me, size, initial)
	var deadline time.Time
	if cfg.Timeout > 0 {
		deadline = time.Now().Add(cfg.Timeout)
	}
	for {
		// Everything that has arrived first: a request answered late
		// leaves its asker idle.
		if err := r.drain(); err != nil {
			return r.stats, err
		}
		if r.stopped {
			return r.stats, nil
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			return r.stats, fmt.Errorf("pool: rank %d: no termination after Config.Timeout %v (%v, %v): a rank stuck or dead", me, cfg.Timeout, cfg.Balance, cfg.Detector)
		}
		if err := r.serve(); err != nil {
			return r.stats, err
		}
		// serve has handed rank 0's free tasks to the waiting ranks
		// first: what is left, or what energy kept back, it runs itself.
		if len(r.queue) > 0 {
			if err := r.runOne(f); err != nil {
				return r.stats, err
			}
			continue
		}
		if err := r.idle(); err != nil {
			return r.stats, err
		}
		if r.stopped {
			return r.stats, nil
		}
		if err := r.await(); err != nil {
			return r.stats, err
		}
	}
}

// newRank is rank me of size's state at the start of Run: cfg with its
// defaults, the initial tasks queued, and the detector's starting state.
func newRank(tr Transport, cfg Config, me, size int, initial [][]byte) *rank {
	if cfg.Threshold == 0 {
		cfg.Threshold = DefaultThreshold
	}
	if cfg.Energy == 0 {
		cfg.Energy = DefaultEnergy
	}
	r := &rank{tr: tr, cfg: cfg, me: me, size: size, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(me)))}
	for _, t := range initial {
		r.push(append([]byte(nil), t...), false)
	}
	r.stats.Created = len(initial)
	r.rr = me
	if cfg.Detector == QueueEmpty && me == 0 {
		r.fromRank, r.askedWith = make([]uint64, size), make([]uint64, size)
	}
	switch cfg.Detector {
	case Acknowledgement:
		// As if rank 0 had sent every other rank its start: each is
		// engaged with parent 0, and rank 0 waits for their
		// acknowledgements.
		r.engaged, r.parent = true, 0
		if me == 0 {
			r.unacked = size - 1
		}
	case DualPassRing, SinglePassRing:
		// Rank 0 holds a black token: its first pass is a new round.
		r.token, r.tokenBlack = me == 0, true
	case FixedEnergy:
		// Every rank starts holding its share, as if rank 0 had handed
		// it out with the starting tasks.
		r.energy = cfg.Energy / uint64(size)
		if me == 0 {
			r.energy += cfg.Energy % uint64(size)
		}
	}
	return r
}

// drain handles the messages that have already arrived, without waiting,
// until none is left or the rank stops.
func (r *rank) drain() error {
	for !r.stopped {
		from, msg, ok, err := r.tr.Recv(0)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if err := r.handle(from, msg); err != nil {
			return err
		}
	}
	return nil
}

// await waits for one message, and handles it if one came: at most 5 ms,
// or until the backoff after a refused request allows asking again.
func (r *rank) await() error {
	wait := 5 * time.Millisecond
	if !r.requested && !r.retryAt.IsZero() {
		if w := time.Until(r.retryAt); w < wait {
			wait = max(w, 0)
		}
	}
	from, msg, ok, err := r.tr.Recv(wait)
	if err != nil {
		return err
	}
	if ok {
		return r.handle(from, msg)
	}
	return nil
}

func (r *rank) push(t []byte, pinned bool) {
	r.queue = append(r.queue, entry{t, pinned})
	if !pinned {
		r.nfree++
	}
}

// takeFree removes up to k free tasks from the back of the queue (the
// newest; the front keeps its order).
func (r *rank) takeFree(k int) [][]byte {
	var out [][]byte
	keep := r.queue[:0:0]
	for i := len(r.queue) - 1; i >= 0; i-- {
		if len(out) < k && !r.queue[i].pinned {
			out = append(out, r.queue[i].task)
			continue
		}
		keep = append(keep, r.queue[i])
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	r.queue = keep
	r.nfree -= len(out)
	return out
}

func (r *rank) send(to int, msg []byte) error {
	r.stats.Messages++
	if err := r.tr.Send(to, msg); err != nil {
		return fmt.Errorf("pool: rank %d: sending to rank %d: %w", r.me, to, err)
	}
	return nil
}

// sendTasks sends tasks to rank to, with the detector's bookkeeping; under
// FixedEnergy, with half this rank's units, or later if it holds only one.
func (r *rank) sendTasks(o outgoing) error {
	var share uint64
	if r.cfg.Detector == FixedEnergy {
		if r.energy < 2 {
			r.pending = append(r.pending, o)
			return r.askEnergy()
		}
		share = r.energy / 2
		r.energy -= share
	}
	switch r.cfg.Detector {
	case SinglePassRing:
		return fmt.Errorf("pool: rank %d: a task sent to rank %d under SinglePassRing: it could wake an idle rank, which the single pass cannot see; use another detector", r.me, o.to)
	case QueueEmpty:
		if o.flags&fReply == 0 && o.to != 0 {
			return fmt.Errorf("pool: rank %d: a task sent to rank %d under QueueEmpty: it bypasses the master, which alone sees the tasks; use another detector", r.me, o.to)
		}
		if o.to == 0 {
			r.toMaster++
		}
	case Acknowledgement:
		r.unacked++
	case DualPassRing:
		r.unacked++
		// "If Pi passes a task to Pj where j < i, it becomes a black
		// process." Rank 0 never blackens: it starts each round idle and
		// only a task from some rank j > 0 wakes it, which blackens j.
		if o.to < r.me {
			r.black = true
		}
	case Tree:
		r.unacked++
		r.black = true
	}
	r.stats.TaskMessages++
	return r.send(o.to, encodeTasks(o.flags, share, o.tasks))
}

func (r *rank) askEnergy() error {
	if r.me == 0 || r.asked {
		return nil // rank 0 waits for energy handed back
	}
	r.asked = true
	return r.send(0, control(mEnergyAsk, 0))
}

// flush sends the tasks that waited for energy, while it lasts.
func (r *rank) flush() error {
	for len(r.pending) > 0 && r.energy >= 2 {
		o := r.pending[0]
		r.pending = r.pending[1:]
		if err := r.sendTasks(o); err != nil {
			return err
		}
	}
	if len(r.pending) > 0 {
		return r.askEnergy()
	}
	return nil
}

func (r *rank) runOne(f Func) error {
	e := r.queue[0]
	r.queue[0] = entry{}
	r.queue = r.queue[1:]
	if !e.pinned {
		r.nfree--
	}
	out := Out{size: r.size}
	if err := f(e.task, &out); err != nil {
		return fmt.Errorf("pool: rank %d: %w", r.me, err)
	}
	r.stats.Tasks++
	r.stats.LastTask = time.Now()
	r.stats.Created += len(out.free)
	for _, to := range out.order {
		ts := out.pinned[to]
		r.stats.Created += len(ts)
		if to == r.me {
			for _, t := range ts {
				r.push(t, true)
			}
			continue
		}
		if err := r.sendTasks(outgoing{to, fPinned, ts}); err != nil {
			return err
		}
	}
	switch {
	case len(out.free) == 0:
	case r.cfg.Balance == Centralized && r.me != 0:
		// "Each slave takes vertices from the vertex queue and returns new
		// vertices": new tasks go to the master's pool.
		if err := r.sendTasks(outgoing{0, 0, out.free}); err != nil {
			return err
		}
	default:
		for _, t := range out.free {
			r.push(t, false)
		}
	}
	if r.cfg.Balance == SenderInitiated && r.size > 1 && r.nfree > r.cfg.Threshold && (r.cfg.Detector != FixedEnergy || r.energy >= 2) {
		r.rr = next(r.rr, r.me, r.size)
		if err := r.sendTasks(outgoing{r.rr, 0, r.takeFree(r.nfree / 2)}); err != nil {
			return err
		}
	}
	return nil
}

// next is the round-robin successor of x among the ranks other than me.
func next(x, me, n int) int {
	x = (x + 1) % n
	if x == me {
		x = (x + 1) % n
	}
	return x
}

// serve answers, on Centralized's rank 0, the ranks waiting for a task.
func (r *rank) serve() error {
	for len(r.waiting) > 0 && r.nfree > 0 && (r.cfg.Detector != FixedEnergy || r.energy >= 2) {
		to := r.waiting[0]
		r.waiting = r.waiting[1:]
		if err := r.sendTasks(outgoing{to, fReply, r.takeFree(1)}); err != nil {
			return err
		}
	}
	return nil
}

// passive: nothing to run, nothing waiting to be sent, and (where tasks
// are acknowledged) every task sent has arrived.
func (r *rank) passive() bool {
	return len(r.queue) == 0 && len(r.pending) == 0 && r.unacked == 0
}

func (r *rank) children() []int {
	var c []int
	for _, k := range []int{2*r.me + 1, 2*r.me + 2} {
		if k < r.size {
			c = append(c, k)
		}
	}
	return c
}

// idle runs when the queue is empty: ask for work, then let the detector
// act.
func (r *rank) idle() error {
	if err := r.request(); err != nil {
		return err
	}
	if !r.passive() {
		return nil
	}
	switch r.cfg.Detector {
	case Acknowledgement:
		return r.idleAck()
	case DualPassRing, SinglePassRing:
		return r.idleRing()
	case Tree:
		if r.me == 0 {
			return r.idleTreeRoot()
		}
		return r.idleTree()
	case QueueEmpty:
		return r.idleQueueEmpty()
	case FixedEnergy:
		return r.idleEnergy()
	}
	return nil
}

// request asks a rank for work, as the balance chooses it, unless a
// request is out or the backoff after a refusal has not passed.
func (r *rank) request() error {
	if r.requested || r.size <= 1 || !time.Now().After(r.retryAt) {
		return nil
	}
	to := -1
	switch r.cfg.Balance {
	case Centralized:
		if r.me != 0 {
			to = 0
		}
	case RandomPolling:
		to = r.rng.IntN(r.size - 1)
		if to >= r.me {
			to++ // uniform over the ranks other than me
		}
	case RoundRobin:
		r.rr = next(r.rr, r.me, r.size)
		to = r.rr
	}
	if to < 0 {
		return nil
	}
	r.requested = true
	return r.send(to, control(mRequest, r.toMaster))
}

// idleAck: rank 0, passive, has every acknowledgement and declares; any
// other rank leaves the tree, acknowledging the task that engaged it.
func (r *rank) idleAck() error {
	if r.me == 0 {
		return r.declare()
	}
	if r.engaged {
		r.engaged = false
		return r.send(r.parent, control(mAck, 0))
	}
	return nil
}

// idleRing passes the token on, if this rank holds it: black (1) if the
// token or this rank is; rank 0 declares when a white token comes back to
// a white rank 0.
func (r *rank) idleRing() error {
	if !r.token {
		return nil
	}
	if r.size == 1 {
		return r.declare()
	}
	if r.me == 0 {
		if !r.tokenBlack && !r.black {
			return r.declare()
		}
		r.black, r.token = false, false
		return r.send(1, control(mToken, 0))
	}
	c := uint64(0)
	if r.tokenBlack || r.black {
		c = 1
	}
	r.black, r.token = false, false
	return r.send((r.me+1)%r.size, control(mToken, c))
}

// idleTreeRoot is rank 0 under Tree: when every child has reported on the
// wave it declares if all were white, and otherwise starts a new wave.
func (r *rank) idleTreeRoot() error {
	kids := r.children()
	if r.probed && r.reports == len(kids) {
		if !r.childBlack && !r.black {
			return r.declare()
		}
		r.probed = false
	}
	if !r.probed {
		// A new wave: rank 0's colour counts from here.
		r.probed, r.reports, r.childBlack, r.black = true, 0, false, false
		for _, k := range kids {
			if err := r.send(k, control(mProbe, 0)); err != nil {
				return err
			}
		}
		if len(kids) == 0 {
			return r.declare()
		}
	}
	return nil
}

// idleTree is a rank other than 0 under Tree: once its children have
// reported on the wave, it reports to its parent (k-1)/2, black (1) if it
// or any of them was.
func (r *rank) idleTree() error {
	kids := r.children()
	if r.probed && r.reports == len(kids) {
		c := uint64(0)
		if r.black || r.childBlack {
			c = 1
		}
		r.probed, r.black, r.childBlack, r.reports = false, false, false, 0
		return r.send((r.me-1)/2, control(mReport, c))
	}
	return nil
}

// idleQueueEmpty: rank 0 declares when every other rank waits for a task
// and every task message each sent to it before asking has arrived.
func (r *rank) idleQueueEmpty() error {
	if r.me != 0 || len(r.waiting) != r.size-1 {
		return nil
	}
	for _, w := range r.waiting {
		if r.askedWith[w] != r.fromRank[w] {
			return nil // tasks it sent before asking are still on their way
		}
	}
	return r.declare()
}

// idleEnergy: rank 0 declares when it holds all the energy; any other
// rank hands back what it holds.
func (r *rank) idleEnergy() error {
	if r.me == 0 {
		if r.energy == r.cfg.Energy {
			return r.declare()
		}
		return nil
	}
	if r.energy > 0 {
		// "When a process becomes idle, it passes energy it holds back
		// before requesting a new task."
		e := r.energy
		r.energy = 0
		return r.send(0, control(mEnergy, e))
	}
	return nil
}

func (r *rank) declare() error {
	r.stats.Declared = time.Now()
	if r.cfg.OnDeclare != nil {
		r.cfg.OnDeclare()
	}
	r.stopped = true
	for k := 1; k < r.size; k++ {
		if err := r.send(k, control(mStop, 0)); err != nil {
			return err
		}
	}
	return nil
}

func (r *rank) handle(from int, msg []byte) error {
	if len(msg) == 0 {
		return fmt.Errorf("pool: rank %d: an empty message from rank %d", r.me, from)
	}
	if msg[0] == mTasks {
		return r.handleTasks(from, msg)
	}
	return r.handleControl(from, msg)
}

// handleTasks queues the tasks of an mTasks message from rank from, with
// the detector's bookkeeping for their arrival.
func (r *rank) handleTasks(from int, msg []byte) error {
	flags, energy, tasks, err := decodeTasks(msg)
	if err != nil {
		return fmt.Errorf("pool: rank %d, from rank %d: %w", r.me, from, err)
	}
	for _, t := range tasks {
		r.push(append([]byte(nil), t...), flags&fPinned != 0)
	}
	if flags&fReply != 0 {
		r.requested, r.backoff, r.retryAt = false, 0, time.Time{}
	}
	switch r.cfg.Detector {
	case Acknowledgement:
		if !r.engaged && r.me != 0 {
			r.engaged, r.parent = true, from // acknowledged when this rank is done
		} else if err := r.send(from, control(mAck, 0)); err != nil {
			return err
		}
	case DualPassRing, Tree:
		if err := r.send(from, control(mAck, 0)); err != nil {
			return err
		}
	case FixedEnergy:
		r.energy += energy
		return r.flush()
	case SinglePassRing:
		return fmt.Errorf("pool: rank %d: a task from rank %d under SinglePassRing, which cannot see a rank woken again", r.me, from)
	case QueueEmpty:
		if r.fromRank != nil {
			r.fromRank[from]++
		}
	}
	return nil
}

// handleControl acts on a control message (every kind but mTasks) from
// rank from.
func (r *rank) handleControl(from int, msg []byte) error {
	v, err := controlValue(msg)
	if err != nil {
		return fmt.Errorf("pool: rank %d, from rank %d: %w", r.me, from, err)
	}
	switch msg[0] {
	case mAck:
		r.unacked--
		if r.unacked < 0 {
			return fmt.Errorf("pool: rank %d: an acknowledgement from rank %d for no task sent", r.me, from)
		}
	case mRequest:
		return r.answer(from, v)
	case mNone:
		// Ask again later, and later still each time: idle ranks asking
		// each other in a tight loop would flood the network.
		r.requested = false
		r.backoff = min(max(2*r.backoff, 50*time.Microsecond), 2*time.Millisecond)
		r.retryAt = time.Now().Add(r.backoff)
	case mToken:
		r.token, r.tokenBlack = true, v != 0
	case mProbe:
		r.probed, r.reports, r.childBlack = true, 0, false
		for _, k := range r.children() {
			if err := r.send(k, control(mProbe, 0)); err != nil {
				return err
			}
		}
	case mReport:
		r.reports++
		r.childBlack = r.childBlack || v != 0
	case mEnergy:
		r.energy += v
		return r.grant()
	case mEnergyAsk:
		r.askers = append(r.askers, from)
		return r.grant()
	case mEnergyGrant:
		r.energy += v
		r.asked = false
		return r.flush()
	case mStop:
		r.stopped = true
	default:
		return fmt.Errorf("pool: rank %d: a message of unknown kind %d from rank %d", r.me, msg[0], from)
	}
	return nil
}

// answer answers rank from's request for work, which carried its count
// of task messages sent to rank 0 (toMaster): Centralized's rank 0 queues
// it for serve; any other rank sends half its free tasks, or mNone.
func (r *rank) answer(from int, toMaster uint64) error {
	if r.cfg.Balance == Centralized && r.me == 0 {
		if r.askedWith != nil {
			r.askedWith[from] = toMaster
		}
		r.waiting = append(r.waiting, from)
		return r.serve()
	}
	// Only a request left over from an earlier Run on the same
	// transport reaches a Static rank or a Centralized worker: they
	// move nothing.
	moves := r.cfg.Balance != Static && r.cfg.Balance != Centralized
	if k := r.nfree / 2; k > 0 && moves && (r.cfg.Detector != FixedEnergy || r.energy >= 2) {
		return r.sendTasks(outgoing{from, fReply, r.takeFree(k)})
	}
	return r.send(from, control(mNone, 0))
}

// grant, on rank 0, sends its own waiting tasks first, then halves what it
// holds for each rank that asked.
func (r *rank) grant() error {
	if err := r.flush(); err != nil {
		return err
	}
	for len(r.askers) > 0 && r.energy >= 2 && len(r.pending) == 0 {
		to := r.askers[0]
		r.askers = r.askers[1:]
		share := r.energy / 2
		r.energy -= share
		if err := r.send(to, control(mEnergyGrant, share)); err != nil {
			return err
		}
	}
	return nil
}
