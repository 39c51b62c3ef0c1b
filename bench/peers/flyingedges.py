# The VTK peer of bench peers: vtkFlyingEdges3D on a raw float32 volume,
# timed one extraction per "run" line on standard input, answered with a
# line "seconds triangles". Run by bench with Debian's /usr/bin/python3
# and python3-vtk9; the volume is read once, before the first run.
import sys
import time

import vtk

path = sys.argv[1]
nx, ny, nz = (int(a) for a in sys.argv[2:5])
spacing = [float(a) for a in sys.argv[5:8]]
origin = [float(a) for a in sys.argv[8:11]]
iso = float(sys.argv[11])

reader = vtk.vtkImageReader()
reader.SetFileName(path)
reader.SetFileDimensionality(3)
reader.SetDataScalarTypeToFloat()
reader.SetDataByteOrderToLittleEndian()
reader.SetNumberOfScalarComponents(1)
reader.SetDataExtent(0, nx - 1, 0, ny - 1, 0, nz - 1)
reader.SetDataSpacing(*spacing)
reader.SetDataOrigin(*origin)
reader.Update()
image = reader.GetOutput()
print("ready %d" % vtk.vtkMultiThreader.GetGlobalDefaultNumberOfThreads(), flush=True)

for line in sys.stdin:
    if line.strip() != "run":
        break
    fe = vtk.vtkFlyingEdges3D()
    fe.SetInputData(image)
    fe.SetValue(0, iso)
    fe.ComputeNormalsOn()
    start = time.perf_counter()
    fe.Update()
    seconds = time.perf_counter() - start
    print("%.6f %d" % (seconds, fe.GetOutput().GetNumberOfCells()), flush=True)
