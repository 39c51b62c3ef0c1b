//go:build mpi

package pool

import (
	"fmt"
	"time"

	"github.com/dpgl/dpgl/internal/mpi"
)

// Tag is the MPI tag of the pool's messages.
const Tag = 4040

// MPI is the Transport over MPI_COMM_WORLD (build tag mpi): each message an
// MPI_Isend of bytes with tag Tag, received by MPI_Iprobe and MPI_Recv.
// MPI must be initialized; calls come from one goroutine.
type MPI struct {
	rank, size int
	sends      []*mpi.ByteSend
}

// NewMPI returns this process's end of the pool's MPI network.
func NewMPI() *MPI { return &MPI{rank: mpi.Rank(), size: mpi.Size()} }

func (t *MPI) Rank() int { return t.rank }
func (t *MPI) Size() int { return t.size }

func (t *MPI) Send(to int, msg []byte) error {
	if to < 0 || to >= t.size {
		return fmt.Errorf("pool: MPI transport: rank %d sends to rank %d of %d", t.rank, to, t.size)
	}
	s, err := mpi.IsendBytes(msg, to, Tag)
	if err != nil {
		return err
	}
	t.sends = append(t.sends, s)
	return t.reap()
}

// reap frees the sends that have completed.
func (t *MPI) reap() error {
	keep := t.sends[:0]
	for _, s := range t.sends {
		done, err := s.Test()
		if err != nil {
			return err
		}
		if done {
			s.Free()
		} else {
			keep = append(keep, s)
		}
	}
	clear(t.sends[len(keep):])
	t.sends = keep
	return nil
}

func (t *MPI) Recv(wait time.Duration) (int, []byte, bool, error) {
	deadline := time.Now().Add(wait)
	for spins := 0; ; spins++ {
		from, msg, ok, err := mpi.TryRecvBytes(Tag)
		if err != nil || ok {
			return from, msg, ok, err
		}
		if err := t.reap(); err != nil {
			return 0, nil, false, err
		}
		if !time.Now().Before(deadline) {
			return 0, nil, false, nil
		}
		// Spin a little, then sleep: an idle rank leaves the CPU to the
		// ranks at work (several share a core under --oversubscribe).
		if spins > 100 {
			time.Sleep(20 * time.Microsecond)
		}
	}
}

// Close waits up to timeout for the sends still under way and frees them;
// call it before mpi.Finalize. A send that does not complete (its receiver
// died) is an error, and the job is to be aborted.
func (t *MPI) Close(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for len(t.sends) > 0 {
		if err := t.reap(); err != nil {
			return err
		}
		if len(t.sends) > 0 && time.Now().After(deadline) {
			return fmt.Errorf("pool: rank %d: %d messages not delivered after %v", t.rank, len(t.sends), timeout)
		}
		time.Sleep(50 * time.Microsecond)
	}
	return nil
}
