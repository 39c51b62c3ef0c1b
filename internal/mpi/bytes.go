//go:build mpi

package mpi

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

// A byte message on its way out: its request and a copy of its bytes in C
// memory, which MPI may read until the send completes.
typedef struct { MPI_Request req; void *buf; } dpgl_bsend;

static int dpgl_isend_bytes(dpgl_bsend *m, const void *data, int n, int to, int tag) {
	m->buf = malloc(n > 0 ? n : 1);
	if (m->buf == NULL) return MPI_ERR_NO_MEM;
	if (n > 0) memcpy(m->buf, data, n);
	return MPI_Isend(m->buf, n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &m->req);
}

// dpgl_test_bsend: 1 done, 0 not yet, else -(MPI error code) - 1.
static int dpgl_test_bsend(dpgl_bsend *m) {
	int done = 0;
	int err = MPI_Test(&m->req, &done, MPI_STATUS_IGNORE);
	if (err != MPI_SUCCESS) return -err - 1;
	return done;
}

// dpgl_iprobe_bytes: 1 and the sender and length when a message with tag
// waits, 0 when none does, else -(MPI error code) - 1.
static int dpgl_iprobe_bytes(int tag, int *from, int *count) {
	MPI_Status st;
	int flag = 0;
	int err = MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
	if (err != MPI_SUCCESS) return -err - 1;
	if (!flag) return 0;
	*from = st.MPI_SOURCE;
	err = MPI_Get_count(&st, MPI_BYTE, count);
	if (err != MPI_SUCCESS) return -err - 1;
	return 1;
}

static int dpgl_recv_bytes(void *buf, int n, int from, int tag) {
	return MPI_Recv(buf, n, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// ByteSend is a byte message under way (MPI_Isend of MPI_BYTE), its bytes
// copied into C memory; Test until true, then Free.
type ByteSend struct {
	m    *C.dpgl_bsend
	done bool
}

// IsendBytes starts sending msg, of any length, to rank to with tag; msg
// may be reused at once.
func IsendBytes(msg []byte, to, tag int) (*ByteSend, error) {
	if len(msg) > math.MaxInt32 {
		panic(fmt.Sprintf("mpi: IsendBytes: a message of %d bytes", len(msg)))
	}
	m := (*C.dpgl_bsend)(C.calloc(1, C.sizeof_dpgl_bsend))
	var p unsafe.Pointer
	if len(msg) > 0 {
		p = unsafe.Pointer(&msg[0])
	}
	if code := C.dpgl_isend_bytes(m, p, C.int(len(msg)), C.int(to), C.int(tag)); code != 0 {
		C.free(m.buf)
		C.free(unsafe.Pointer(m))
		return nil, result("MPI_Isend(bytes)", code)
	}
	return &ByteSend{m: m}, nil
}

// Test reports, without waiting, whether the send has completed.
func (s *ByteSend) Test() (bool, error) {
	if s.done {
		return true, nil
	}
	switch r := C.dpgl_test_bsend(s.m); {
	case r == 1:
		s.done = true
	case r < 0:
		return false, result("MPI_Test(bytes)", -r-1)
	}
	return s.done, nil
}

// Free releases a completed send's memory (one still under way must not
// be freed: the job is to be aborted then).
func (s *ByteSend) Free() {
	if s.m != nil {
		C.free(s.m.buf)
		C.free(unsafe.Pointer(s.m))
		s.m = nil
	}
}

// TryRecvBytes receives a message with tag from any rank if one waits
// (MPI_Iprobe, then MPI_Recv of what it found), without waiting otherwise.
func TryRecvBytes(tag int) (from int, msg []byte, ok bool, err error) {
	var f, n C.int
	switch r := C.dpgl_iprobe_bytes(C.int(tag), &f, &n); {
	case r == 0:
		return 0, nil, false, nil
	case r < 0:
		return 0, nil, false, result("MPI_Iprobe", -r-1)
	}
	msg = make([]byte, int(n))
	var p unsafe.Pointer
	if n > 0 {
		p = unsafe.Pointer(&msg[0])
	}
	// The message probed is the first from f with tag: MPI keeps the order
	// of messages between two ranks, and calls are serialized.
	if code := C.dpgl_recv_bytes(p, n, f, C.int(tag)); code != 0 {
		return 0, nil, false, result("MPI_Recv(bytes)", code)
	}
	return int(f), msg, true, nil
}
