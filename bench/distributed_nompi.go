//go:build !mpi

package main

import (
	"errors"
	"io"
)

func init() {
	commands["distributed"] = command{runDistributed, "sort-last rendering over MPI (needs a build with -tags mpi: make bench-mpi)"}
}

// runDistributed explains how to get the command: its MPI calls are built
// only with the mpi tag, so that building the module needs no MPI library.
func runDistributed(args []string, w io.Writer) error {
	return errors.New("bench distributed: this bench was built without MPI; install OpenMPI (apt-get install openmpi-bin libopenmpi-dev), " +
		"build with `go build -tags mpi -o bench-mpi ./bench` (or make bench-mpi) and run `mpirun -np 4 ./bench-mpi distributed`")
}
