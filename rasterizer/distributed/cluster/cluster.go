//go:build mpi

package cluster

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/internal/mpi"
	"github.com/dpgl/dpgl/rasterizer/distributed"
)

// Options configure Join.
type Options struct {
	// Timeout is the longest rank 0 waits for the other ranks at any
	// collective or message (the others wait twice as long); 0 means a
	// minute.
	Timeout time.Duration
	// Name prefixes the messages the cluster prints when it ends the job
	// (a program's name); empty means "cluster".
	Name string
	// TimeoutName is what the messages call the timeout (a flag's name,
	// "-timeout"); empty means "the timeout".
	TimeoutName string
}

// Cluster is this process's rank of the MPI job, and a distributed.Comm
// over MPI_COMM_WORLD whose every wait is limited.
type Cluster struct {
	o           Options
	rank, size  int
	local       int
	phase       string
	device      string // this rank's device, once OpenDevice made it
	initialized bool
}

// Join starts MPI (MPI_Init_thread) and finds this rank among the ranks
// on its node. Every rank calls it once, before any other call; a program
// not started by mpirun is a job of one rank.
func Join(o Options) (*Cluster, error) {
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.Name == "" {
		o.Name = "cluster"
	}
	if o.TimeoutName == "" {
		o.TimeoutName = "the timeout"
	}
	if err := mpi.Init(); err != nil {
		return nil, fmt.Errorf("%s: %w (run it under mpirun)", o.Name, err)
	}
	c := &Cluster{o: o, rank: mpi.Rank(), size: mpi.Size(), phase: "start", initialized: true}
	local, err := mpi.LocalRank()
	if err != nil {
		mpi.Finalize()
		return nil, fmt.Errorf("%s: %w", o.Name, err)
	}
	c.local = local
	return c, nil
}

// Leave ends MPI (MPI_Finalize): after the last collective, at every rank.
func (c *Cluster) Leave() {
	if c.initialized {
		c.initialized = false
		mpi.Finalize()
	}
}

// Rank is this process's rank, Size the job's ranks, LocalRank this rank
// among the ranks on its node.
func (c *Cluster) Rank() int      { return c.rank }
func (c *Cluster) Size() int      { return c.size }
func (c *Cluster) LocalRank() int { return c.local }

// SetTimeout changes the time limit, as Options.Timeout.
func (c *Cluster) SetTimeout(d time.Duration) {
	if d > 0 {
		c.o.Timeout = d
	}
}

// Phase is what the ranks are doing, as the last SetPhase said.
func (c *Cluster) Phase() string { return c.phase }

// SetPhase names what the ranks do next, for the messages (it makes the
// cluster a distributed.Phaser).
func (c *Cluster) SetPhase(phase string) { c.phase = phase }

// wait is this rank's limit on one wait: rank 0 gives up first, so that
// it is the one that reports.
func (c *Cluster) wait() time.Duration {
	if c.rank == 0 {
		return c.o.Timeout
	}
	return 2 * c.o.Timeout
}

// fail ends the job: the ranks can no longer agree on anything once a
// collective failed or timed out at one of them.
func (c *Cluster) fail(err error) {
	if errors.Is(err, mpi.ErrTimeout) {
		limit := fmt.Sprintf("%s %v", c.o.TimeoutName, c.o.Timeout)
		if c.rank != 0 {
			limit = fmt.Sprintf("%v (twice %s, so that rank 0 reports first)", c.wait(), limit)
		}
		fmt.Fprintf(os.Stderr, "%s: rank %d: another rank did not reach %q within %s (stuck or dead): ending the job\n", c.o.Name, c.rank, c.phase, limit)
	} else {
		fmt.Fprintf(os.Stderr, "%s: rank %d: during %q: %v: ending the job\n", c.o.Name, c.rank, c.phase, err)
	}
	mpi.Abort(3)
}

// check ends the job on err; it returns nil otherwise.
func (c *Cluster) check(err error) error {
	if err != nil {
		c.fail(err)
	}
	return nil
}

func (c *Cluster) ReduceScatterMin(send, recv []uint64) error {
	return c.check(mpi.ReduceScatterMin(send, recv, c.wait()))
}

func (c *Cluster) Gather(send, recv []uint64, root int) error {
	return c.check(mpi.Gather(send, recv, root, c.wait()))
}

func (c *Cluster) AllgatherUint64(send, recv []uint64) error {
	return c.check(mpi.AllgatherUint64(send, recv, c.wait()))
}

func (c *Cluster) ReduceOr(send, recv []uint32, root int) error {
	return c.check(mpi.ReduceOr(send, recv, root, c.wait()))
}

func (c *Cluster) AllgatherFloat64(send, recv []float64) error {
	return c.check(mpi.AllgatherFloat64(send, recv, c.wait()))
}

// AllgatherBytes gives every rank every rank's send, in rank order.
func (c *Cluster) AllgatherBytes(send, recv []byte) error {
	return c.check(mpi.AllgatherBytes(send, recv, c.wait()))
}

// handoffTag is the MPI tag of distributed's point-to-point messages.
const handoffTag = 20

func (c *Cluster) Send(to int, msg distributed.Msg) error {
	m, err := mpi.Isend(msg[:], to, handoffTag)
	if err != nil {
		return c.check(err)
	}
	if err := m.Wait(c.wait()); err != nil {
		return c.check(err) // the job is aborted: m stays in MPI's hands
	}
	m.Free()
	return nil
}

func (c *Cluster) Receive(from int) (distributed.Receipt, error) {
	m, err := mpi.Irecv(len(distributed.Msg{}), from, handoffTag)
	if err != nil {
		return nil, c.check(err)
	}
	return &receipt{c: c, m: m}, nil
}

// receipt is a receive under way; its C memory is freed when it
// completes.
type receipt struct {
	c    *Cluster
	m    *mpi.Message
	msg  distributed.Msg
	done bool
}

func (r *receipt) finish() {
	copy(r.msg[:], r.m.Words())
	r.m.Free()
	r.done = true
}

func (r *receipt) Test() (distributed.Msg, bool, error) {
	if r.done {
		return r.msg, true, nil
	}
	ok, err := r.m.Test()
	if err != nil || !ok {
		return r.msg, false, r.c.check(err)
	}
	r.finish()
	return r.msg, true, nil
}

func (r *receipt) Wait() (distributed.Msg, error) {
	if r.done {
		return r.msg, nil
	}
	if err := r.m.Wait(r.c.wait()); err != nil {
		return r.msg, r.c.check(err)
	}
	r.finish()
	return r.msg, nil
}

// Agree is distributed.Agree on the cluster, its error prefixed with
// Options.Name.
func (c *Cluster) Agree(phase string, err error) error {
	if err := distributed.Agree(c, phase, err); err != nil {
		return fmt.Errorf("%s: %w", c.o.Name, err)
	}
	return nil
}

// OpenDevice makes this rank's GL context on the device that device
// names: "rank" is the local rank mod the node's EGL devices (one GPU a
// rank; where EGL has no device platform, whatever gpu.NewHeadless
// finds), "any" whatever gpu.NewHeadless finds (or DPGL_EGL_DEVICE), a
// number that EGL device. It does not agree: call Agree after it.
func (c *Cluster) OpenDevice(device string) (*gpu.Context, error) {
	switch device {
	case "any":
		return gpu.NewHeadless()
	case "rank":
		devs, err := gpu.EGLDevices()
		if err != nil {
			return gpu.NewHeadless()
		}
		dev, err := gpu.DeviceForRank(devs, c.local)
		if err != nil {
			return nil, err
		}
		return gpu.NewHeadlessDevice(dev.Index)
	}
	i, err := strconv.Atoi(device)
	if err != nil || i < 0 {
		return nil, fmt.Errorf("%s: device %q: want \"rank\", \"any\" or an EGL device index", c.o.Name, device)
	}
	return gpu.NewHeadlessDevice(i)
}

// lineBytes is the room for one rank's line in Devices.
const lineBytes = 400

// Devices is, at every rank, a line per rank saying where it runs and on
// which device of ctx's kind (a collective).
func (c *Cluster) Devices(ctx *gpu.Context) []string {
	host, _ := os.Hostname()
	cp := ctx.Caps()
	line := fmt.Sprintf("rank %d: node %s, local rank %d, %s: %s", c.rank, host, c.local, cp.Platform, cp.Renderer)
	send := make([]byte, lineBytes)
	copy(send[:lineBytes-1], line)
	recv := make([]byte, lineBytes*c.size)
	c.phase = "reporting the devices"
	c.AllgatherBytes(send, recv)
	lines := make([]string, c.size)
	for r := range lines {
		lines[r] = strings.TrimRight(string(recv[r*lineBytes:(r+1)*lineBytes]), "\x00")
	}
	return lines
}

// Abort ends every rank of the job with code, at once (MPI_Abort).
func (c *Cluster) Abort(code int) { mpi.Abort(code) }
