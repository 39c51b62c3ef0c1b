// Package mpi is the handful of MPI calls dpgl's distributed renderer needs
// (bench distributed), through cgo against the system's MPI (Debian 12's
// OpenMPI 4.1: apt-get install openmpi-bin libopenmpi-dev; pkg-config
// ompi-c).
//
// # Why not a binding from the module proxy
//
// github.com/sbromberger/gompi v0.3.0, the Go binding the module proxy
// serves, was checked against Debian 12's OpenMPI 4.1.4 and is unfit here:
//
//   - its go.mod says go 1.27 (it uses generic methods), and this module
//     builds with Go 1.26 and GOTOOLCHAIN=local: `go get` refuses it;
//   - it has Allreduce and Reduce with MIN on uint64 and Abort, but no
//     Reduce_scatter and no Gather, and no non-blocking collectives, so a
//     wait on a dead or stuck rank could not be given a time limit.
//
// A dozen MPI calls through cgo cost less than working around those gaps:
// the collectives (reduce-scatter with MIN, gather, allgather), the
// Left-Right Handoff's point-to-point messages (Isend, Irecv, Test; their
// words live in C memory, so MPI may hold them across calls), and
// LocalRank (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED), by which each
// rank takes its node's GPU.
//
// # Build tag
//
// Everything but this file is built only with the build tag mpi
// (go build -tags mpi ./bench; make test-mpi does it), so that
// `go build ./...` and `go vet ./...` of the module need no MPI headers or
// library on a machine without libopenmpi-dev.
//
// # Time limits
//
// MPI waits for ever on a rank that hangs. Every collective and message
// here is started non-blocking and waited on with a deadline (a loop of
// MPI_Test); when the deadline passes it returns ErrTimeout, and the caller
// must Abort: a collective that was started cannot be withdrawn.
//
// Calls must not overlap (MPI_THREAD_SERIALIZED): make them from one
// goroutine.
package mpi
