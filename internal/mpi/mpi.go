//go:build mpi

package mpi

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

// dpgl_wait completes *req, polling MPI_Test until it completes or timeout
// seconds pass: 0 done, 1 timed out, else the MPI error code.
static int dpgl_wait(MPI_Request *req, double timeout) {
	double deadline = MPI_Wtime() + timeout;
	struct timespec pause = {0, 20000};
	int spins = 0;
	for (;;) {
		int done = 0;
		int err = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (err != MPI_SUCCESS) return err;
		if (done) return 0;
		if (MPI_Wtime() > deadline) return 1;
		// Spin a little for short waits, then sleep so that a waiting rank
		// leaves the CPU to the ranks still rendering.
		if (++spins > 200) nanosleep(&pause, NULL);
	}
}

static int dpgl_init(void) {
	int provided = 0;
	int err = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
	if (err != MPI_SUCCESS) return -1;
	// Errors come back as codes, not as the default abort.
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	return provided;
}

static int dpgl_reduce_scatter_min_u64(const void *send, void *recv, int block, double timeout) {
	MPI_Request req;
	int err = MPI_Ireduce_scatter_block(send, recv, block, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

static int dpgl_gather_u64(const void *send, void *recv, int block, int root, double timeout) {
	MPI_Request req;
	int err = MPI_Igather(send, block, MPI_UINT64_T, recv, block, MPI_UINT64_T, root, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

static int dpgl_allgather_bytes(const void *send, void *recv, int block, double timeout) {
	MPI_Request req;
	int err = MPI_Iallgather(send, block, MPI_BYTE, recv, block, MPI_BYTE, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

static int dpgl_allgather_u64(const void *send, void *recv, int block, double timeout) {
	MPI_Request req;
	int err = MPI_Iallgather(send, block, MPI_UINT64_T, recv, block, MPI_UINT64_T, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

static int dpgl_reduce_or_u32(const void *send, void *recv, int n, int root, double timeout) {
	MPI_Request req;
	int err = MPI_Ireduce(send, recv, n, MPI_UINT32_T, MPI_BOR, root, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

static int dpgl_allgather_f64(const void *send, void *recv, int block, double timeout) {
	MPI_Request req;
	int err = MPI_Iallgather(send, block, MPI_DOUBLE, recv, block, MPI_DOUBLE, MPI_COMM_WORLD, &req);
	if (err != MPI_SUCCESS) return err;
	return dpgl_wait(&req, timeout);
}

// dpgl_local_rank is this process's rank among those sharing its node
// (MPI_COMM_TYPE_SHARED): which of the node's GPUs it takes. -1 on error.
static int dpgl_local_rank(void) {
	MPI_Comm node;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return -1;
	int r = -1;
	MPI_Comm_rank(node, &r);
	MPI_Comm_free(&node);
	return r;
}

// A point-to-point message: its request and its words, in C memory so
// that MPI may hold them across calls without Go's pointer rules.
typedef struct { MPI_Request req; long long words[8]; } dpgl_msg;

static int dpgl_isend(dpgl_msg *m, int n, int to, int tag) {
	return MPI_Isend(m->words, n, MPI_LONG_LONG, to, tag, MPI_COMM_WORLD, &m->req);
}

static int dpgl_irecv(dpgl_msg *m, int n, int from, int tag) {
	return MPI_Irecv(m->words, n, MPI_LONG_LONG, from, tag, MPI_COMM_WORLD, &m->req);
}

// dpgl_test: 1 done, 0 not yet, else -(MPI error code) - 1.
static int dpgl_test(dpgl_msg *m) {
	int done = 0;
	int err = MPI_Test(&m->req, &done, MPI_STATUS_IGNORE);
	if (err != MPI_SUCCESS) return -err - 1;
	return done;
}

static int dpgl_wait_msg(dpgl_msg *m, double timeout) { return dpgl_wait(&m->req, timeout); }

static int dpgl_rank(void) { int r = -1; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static int dpgl_size(void) { int n = 0; MPI_Comm_size(MPI_COMM_WORLD, &n); return n; }
static void dpgl_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// ErrTimeout is returned when a collective did not complete in time: some
// rank did not reach it. The caller must Abort.
var ErrTimeout = errors.New("mpi: timed out waiting for the other ranks")

// Init starts MPI (MPI_Init_thread, serialized calls), with errors returned
// rather than aborting the job.
func Init() error {
	p := C.dpgl_init()
	if p < 0 {
		return errors.New("mpi: MPI_Init_thread failed")
	}
	if p < C.MPI_THREAD_SERIALIZED {
		return fmt.Errorf("mpi: the MPI library offers thread level %d, below MPI_THREAD_SERIALIZED", int(p))
	}
	return nil
}

// Finalize ends MPI; call it once, after the last collective.
func Finalize() { C.MPI_Finalize() }

// Rank is this process's rank in MPI_COMM_WORLD.
func Rank() int { return int(C.dpgl_rank()) }

// LocalRank is this process's rank among the ranks on its node (a
// collective: MPI_Comm_split_type with MPI_COMM_TYPE_SHARED, so every rank
// calls it, once, at the same point). It is what OpenMPI's
// OMPI_COMM_WORLD_LOCAL_RANK says, from any MPI library.
func LocalRank() (int, error) {
	r := int(C.dpgl_local_rank())
	if r < 0 {
		return 0, errors.New("mpi: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed")
	}
	return r, nil
}

// Size is the number of ranks in MPI_COMM_WORLD.
func Size() int { return int(C.dpgl_size()) }

// Abort ends every rank of the job with code (MPI_Abort); it does not
// return.
func Abort(code int) { C.dpgl_abort(C.int(code)) }

// Wtime is MPI's wall clock in seconds.
func Wtime() float64 { return float64(C.MPI_Wtime()) }

func result(call string, code C.int) error {
	switch code {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s: %w", call, ErrTimeout)
	}
	var buf [C.MPI_MAX_ERROR_STRING]C.char
	var n C.int
	C.MPI_Error_string(code, &buf[0], &n)
	return fmt.Errorf("mpi: %s: %s", call, C.GoStringN(&buf[0], n))
}

func seconds(d time.Duration) C.double { return C.double(d.Seconds()) }

// pin keeps the slices' memory in place while MPI holds it beyond the
// cgo call that started a non-blocking collective.
func pin[T any](p *runtime.Pinner, s ...[]T) {
	for _, x := range s {
		if len(x) > 0 {
			p.Pin(&x[0])
		}
	}
}

func ptr[T any](s []T) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

// ReduceScatterMin takes the elementwise minimum of every rank's send and
// leaves block r of it in rank r's recv: len(send) = Size()·len(recv).
func ReduceScatterMin(send, recv []uint64, timeout time.Duration) error {
	if len(send) != Size()*len(recv) {
		panic(fmt.Sprintf("mpi: ReduceScatterMin: %d words to send for %d ranks of %d", len(send), Size(), len(recv)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Ireduce_scatter_block(MIN)", C.dpgl_reduce_scatter_min_u64(ptr(send), ptr(recv), C.int(len(recv)), seconds(timeout)))
}

// Gather puts every rank's send, in rank order, into root's recv
// (len(recv) = Size()·len(send) at root; recv is ignored elsewhere).
func Gather(send, recv []uint64, root int, timeout time.Duration) error {
	if Rank() == root && len(recv) != Size()*len(send) {
		panic(fmt.Sprintf("mpi: Gather: %d words to receive for %d ranks of %d", len(recv), Size(), len(send)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Igather", C.dpgl_gather_u64(ptr(send), ptr(recv), C.int(len(send)), C.int(root), seconds(timeout)))
}

// AllgatherBytes gives every rank every rank's send, in rank order:
// len(recv) = Size()·len(send).
func AllgatherBytes(send, recv []byte, timeout time.Duration) error {
	if len(recv) != Size()*len(send) {
		panic(fmt.Sprintf("mpi: AllgatherBytes: %d bytes to receive for %d ranks of %d", len(recv), Size(), len(send)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Iallgather(bytes)", C.dpgl_allgather_bytes(ptr(send), ptr(recv), C.int(len(send)), seconds(timeout)))
}

// AllgatherUint64 gives every rank every rank's send, in rank order:
// len(recv) = Size()·len(send).
func AllgatherUint64(send, recv []uint64, timeout time.Duration) error {
	if len(recv) != Size()*len(send) {
		panic(fmt.Sprintf("mpi: AllgatherUint64: %d words to receive for %d ranks of %d", len(recv), Size(), len(send)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Iallgather(uint64)", C.dpgl_allgather_u64(ptr(send), ptr(recv), C.int(len(send)), seconds(timeout)))
}

// ReduceOr puts the elementwise bitwise OR of every rank's send into
// root's recv (len(recv) = len(send) at root; ignored elsewhere).
func ReduceOr(send, recv []uint32, root int, timeout time.Duration) error {
	if Rank() == root && len(recv) != len(send) {
		panic(fmt.Sprintf("mpi: ReduceOr: %d words to receive for %d sent", len(recv), len(send)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Ireduce(BOR)", C.dpgl_reduce_or_u32(ptr(send), ptr(recv), C.int(len(send)), C.int(root), seconds(timeout)))
}

// AllgatherFloat64 gives every rank every rank's send, in rank order.
func AllgatherFloat64(send, recv []float64, timeout time.Duration) error {
	if len(recv) != Size()*len(send) {
		panic(fmt.Sprintf("mpi: AllgatherFloat64: %d values to receive for %d ranks of %d", len(recv), Size(), len(send)))
	}
	var p runtime.Pinner
	defer p.Unpin()
	pin(&p, send, recv)
	return result("MPI_Iallgather(double)", C.dpgl_allgather_f64(ptr(send), ptr(recv), C.int(len(send)), seconds(timeout)))
}

// MaxWords is the longest point-to-point message, in int64 words.
const MaxWords = 8

// Message is one non-blocking point-to-point message (MPI_Isend or
// MPI_Irecv of int64 words on MPI_COMM_WORLD), in C memory.
type Message struct {
	m    *C.dpgl_msg
	n    int
	done bool
}

func newMessage(n int) *Message {
	if n < 0 || n > MaxWords {
		panic(fmt.Sprintf("mpi: a message of %d words; at most %d", n, MaxWords))
	}
	m := (*C.dpgl_msg)(C.calloc(1, C.sizeof_dpgl_msg))
	return &Message{m: m, n: n}
}

// Isend starts sending words to rank to with tag; Wait (or Test until
// true) completes it, and Free releases it.
func Isend(words []int64, to, tag int) (*Message, error) {
	m := newMessage(len(words))
	for i, w := range words {
		m.m.words[i] = C.longlong(w)
	}
	if code := C.dpgl_isend(m.m, C.int(m.n), C.int(to), C.int(tag)); code != 0 {
		m.Free()
		return nil, result("MPI_Isend", code)
	}
	return m, nil
}

// Irecv starts receiving n words from rank from with tag.
func Irecv(n, from, tag int) (*Message, error) {
	m := newMessage(n)
	if code := C.dpgl_irecv(m.m, C.int(n), C.int(from), C.int(tag)); code != 0 {
		m.Free()
		return nil, result("MPI_Irecv", code)
	}
	return m, nil
}

// Test reports, without waiting, whether the message has completed.
func (m *Message) Test() (bool, error) {
	if m.done {
		return true, nil
	}
	switch r := C.dpgl_test(m.m); {
	case r == 1:
		m.done = true
	case r < 0:
		return false, result("MPI_Test", -r-1)
	}
	return m.done, nil
}

// Wait completes the message, or returns ErrTimeout after timeout.
func (m *Message) Wait(timeout time.Duration) error {
	if m.done {
		return nil
	}
	if err := result("MPI_Wait(message)", C.dpgl_wait_msg(m.m, seconds(timeout))); err != nil {
		return err
	}
	m.done = true
	return nil
}

// Words are a completed message's words.
func (m *Message) Words() []int64 {
	w := make([]int64, m.n)
	for i := range w {
		w[i] = int64(m.m.words[i])
	}
	return w
}

// Free releases a completed message's memory. A message still under way
// must not be freed (MPI still writes into it): the job is to be aborted
// then.
func (m *Message) Free() {
	if m.m != nil {
		C.free(unsafe.Pointer(m.m))
		m.m = nil
	}
}
