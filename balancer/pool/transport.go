package pool

import "time"

// Transport carries the pool's messages between ranks: MPI point-to-point
// messages (NewMPI, build tag mpi) or Go channels in one process (NewLocal,
// with injected delays, reordering and held-back messages for tests).
//
// The pool's algorithms assume only that a message sent is delivered once,
// whole, at some later time: not in order, and not within any bound.
// Calls come from one goroutine per rank.
type Transport interface {
	// Rank is this rank's number in 0..Size()-1.
	Rank() int
	// Size is the number of ranks.
	Size() int
	// Send starts sending msg to rank to and returns without waiting for
	// it to arrive; msg may be reused as soon as Send returns.
	Send(to int, msg []byte) error
	// Recv returns a message sent to this rank, waiting at most wait for
	// one; ok is false when none came.
	Recv(wait time.Duration) (from int, msg []byte, ok bool, err error)
}
