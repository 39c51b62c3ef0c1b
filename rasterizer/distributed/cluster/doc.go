// Package cluster runs sort-last rendering (package distributed) across
// the ranks of an MPI job: one process a GPU, each rendering its share of
// a polygon set, composited into the image one process would draw, bit
// for bit.
//
//	cl, err := cluster.Join(cluster.Options{Timeout: time.Minute}) // MPI_Init, every rank
//	defer cl.Leave()
//	c, err := cl.OpenDevice("rank")            // this rank's GPU: local rank mod the node's devices
//	…                                          // a scan.Scanner and a rasterizer.Renderer on c
//	src := distributed.Triangles(c, m)         // or distributed.NewBricks(cl, c, samples, iso)
//	sc, err := distributed.NewScene(cl, r, src, distributed.SceneOptions{Policy: distributed.LeftRightHandoff})
//	st, err := sc.Frame(cam, "front")          // every rank, frame after frame
//	sc.Visibility()                            // at rank 0: the composited words; r.Resolve shades them
//
// A *Cluster is a distributed.Comm over MPI_COMM_WORLD. Every wait on the
// other ranks, collective or point-to-point, is non-blocking with a time
// limit (Options.Timeout at rank 0, twice that elsewhere, so that rank 0
// speaks first); a rank that does not arrive, or an MPI call that fails,
// ends the whole job (MPI_Abort) with a message naming the rank and the
// phase the ranks were in (distributed.SetPhase). A rank's own failure is
// not fatal: distributed.Agree tells every rank of it, and each returns
// the same error.
//
// Run a program that uses it under mpirun:
//
//	go build -tags mpi -o prog . && mpirun -np 4 ./prog
//
// # Build tag
//
// Everything but this file is built only with the build tag mpi (it needs
// OpenMPI's headers: apt-get install openmpi-bin libopenmpi-dev), so that
// go build ./... of the module needs no MPI.
package cluster
