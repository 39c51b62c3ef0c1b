//go:build !mpi

package main

import (
	"errors"
	"io"
)

func init() {
	commands["pool"] = command{runPool, "Moore's algorithm across MPI ranks on each work pool and termination detector (needs a build with -tags mpi: make bench-mpi)"}
}

// runPool explains how to get the command: its MPI calls are built only
// with the mpi tag.
func runPool(args []string, w io.Writer) error {
	return errors.New("bench pool: this bench was built without MPI; install OpenMPI (apt-get install openmpi-bin libopenmpi-dev), " +
		"build with `go build -tags mpi -o bench-mpi ./bench` (or make bench-mpi) and run `mpirun -np 4 ./bench-mpi pool`")
}
