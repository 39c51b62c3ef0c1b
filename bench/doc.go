// Command bench measures dpgl's kernels and reproduces the experiments of
// Ahrens & Hansen, "Cost-Effective Data-Parallel Load Balancing" (1995), on
// the GPU, headless.
//
//	bench [command] [flags]
//
// With no command it runs "paper": the paper's Tables 1-4 re-run on the
// embedded default dataset (make run). Run "bench -h" for the commands,
// "bench COMMAND -h" for their flags. paper, render and calibrate take a
// built-in field, a NIfTI volume (-volume) or a PLY mesh (-mesh). The
// experiment itself is package bench/internal/experiment, which returns a
// typed report; the commands here parse flags, print and write files.
//
// Every flag is checked before any work: numbers as they are parsed
// (package internal/cliflag: NaN, the infinities and values out of range
// are refused naming the flag and the value), lists, input files and the
// -out folder right after.
//
// # Commands
//
//	paper        the paper's Tables 1-4 for a dataset's balanced and
//	             unbalanced sets: original against load-balanced renderer
//	render       both sets at the paper's views under each policy, beside
//	             the GPU's own pipeline
//	calibrate    the renderer loops' overestimated costs (the paper's §4.1),
//	             saved to the calibration file
//	strategies   every balancing strategy and policy on the renderer's two
//	             loops and on shortest paths
//	balance      the balancer's policies on synthetic workloads
//	iso          GPU marching cubes, and the datasets' Table-1 workloads
//	scan, sort   scans and the radix sort against the copy kernel
//	primitives   histogram, select, partition, ..., load-balancing search
//	copy, quick  memory bandwidth of the copy kernel and the driver's copy
//	info         the GL context's renderer, driver and capabilities
//	distributed  sort-last rendering over MPI (a build with -tags mpi)
//	pool         Moore's algorithm across MPI ranks on each work pool and
//	             termination detector of package balancer/pool: tasks per
//	             second, messages per task, last task to termination
//	             (-tags mpi; run it under mpirun -np 1, 2 and 4)
//
// # What repeats and what does not
//
// Counts repeat exactly: workloads, iterations, balancing steps, images
// (compared pixel for pixel with the CPU reference and across policies).
// Times are medians of -reps runs after -warmup untimed ones, measured
// with GPU timestamps, and are reported beside the copy kernel or the
// GPU's pipeline measured in the same run: compare ratios, not times
// taken on different machines or under load.
//
// The renderer's loop costs come from the calibration file
// (balancer.DefaultCalibrationPath, or -calibration FILE), which
// calibrate writes; a cost taken on a busy machine misleads every later
// run, so calibrate where nothing else runs. A run that recalibrates
// replaces only the loops it measured, keeps an entry it cannot read (and
// says so), and never replaces an entry of more runs; concurrent runs
// update the file under a lock and lose nothing.
//
// bench writes only the result files in -out and the calibration file,
// through internal/fileio: each into a temporary file renamed into place
// once all are written, so a run that fails (a full disk) leaves -out as
// it found it, and never over one of its inputs. Inputs are regular files:
// a FIFO or a device is refused at once unless DPGL_ALLOW_SPECIAL=1.
// What a run goes on past without an error (a calibration file -cost
// makes it ignore, a mesh whose triangles all have zero area, an
// unbalanced set equal to the balanced one) is a line starting
// "warning: ".
package main
