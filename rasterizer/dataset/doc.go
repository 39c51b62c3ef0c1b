// Package dataset makes the paper's polygon datasets: one surface as two
// polygon sets from two isosurface algorithms, a balanced one (marching
// cubes) and an unbalanced one (quadric-error decimation of it), with the
// views of the paper's Table 1 and its workload statistics.
//
//	volume → isosurface → triangles → scan conversion → spans → z-buffer → image
//	\________ dataset ________/
//
// Default is the embedded dataset that `make run` renders: the synthetic
// perforator jet (volume.PerforatorJet) at 128^3, about 108,000 marching-
// cubes triangles and a fifth as many decimated ones. At 512x512 and view
// (0,0) its balanced set has a scan-conversion max/avg near 2 and its
// unbalanced set near 19, as the paper's balanced and unbalanced sets did
// (8/5 and 231/6).
//
// SecondExperiment makes the sets of the paper's second experiment: two
// outputs of a fluid-dynamics simulation (the Taylor–Green vortex's speed,
// unbalanced, and vorticity) and a particle simulation's density.
//
// # Making a pair
//
//	Default                  the embedded dataset (make run, the viewer's default)
//	FromField, Sample        a built-in field (volume.Fields()) sampled at n^3
//	New, FromVolume          a volume read from a file (volume.ReadNIfTI) or made in memory
//	FromMesh                 a mesh read from a file (mesh.ReadPLY): it is the
//	                         balanced set, its decimation the unbalanced one
//
// New, Sample and FromMesh return errors naming the dataset for inputs no
// surface can come from; FromField and FromVolume are their forms for
// inputs known to be good, and panic instead. Unbalance makes the
// unbalanced set of any balanced one, as they all do (the viewer's
// background decimation of a re-extracted surface is this call). Pair.Table1 measures both
// sets at the paper's four views (package workload), and WriteTable1
// prints the rows as the paper's Table 1 lays them out.
//
// Pairs are made on the CPU and are deterministic (decimation queues its
// edges in a fixed order; the particle simulation draws from a fixed
// seed): the same inputs give the same triangles in the same order on
// every run, so the renderer's images and the tables of bench repeat. A Pair is read-only once made and may be shared between
// goroutines.
package dataset
