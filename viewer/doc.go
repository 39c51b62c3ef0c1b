// Command viewer is the interactive isosurface window: the compute
// renderer's image of a dataset's isosurface (package rasterizer), with the
// balancer at work in its two loops shown as you turn the surface.
//
//	go run ./viewer                          the default dataset (perforator 128^3)
//	go run ./viewer -field torus -res 64     a built-in field
//	go run ./viewer -volume head.nii.gz -iso 80 -res 128
//	go run ./viewer -mesh cube.ply -flat
//	xvfb-run -a go run ./viewer -frames 3 -view 'M(45,45)' -screenshot out.png
//
// Mouse: drag to orbit, scroll to zoom, right-drag to pan. Keys: 1-4 the
// paper's views, T the tiled renderer (the fastest, and the default), B the
// paper's loops and their balancer policy, G the loops by strategy, L the
// lanes, U the polygon set, + and - the isovalue, R the hardware-pipeline
// reference, S a screenshot, O the overlay, C print the camera on standard
// output in -view's notation (e.g. "camera (30,15)x2.5": its direction and
// magnification, no roll or pan), H help, Esc or Q quit. Every
// renderer draws the same image; the overlay says which ran, and at how
// many frames a second.
//
// The window shows the renderer's RGBA buffer, copied into a texture on the
// GPU and blitted to the window; a frame is rendered only when something it
// depends on changed, and between frames the viewer sleeps in
// glfw.WaitEvents. With -frames or -screenshot it renders that many frames
// (each anew), saves the window's
// contents (PNG or JPEG, by the file's extension) and exits (the scripted
// mode that tests and the README use).
//
// The code is in internal packages: control (camera, keys, settings),
// scene (the GPU side), overlay (the bitmap font and panels) and app (the
// loop); this file reads the flags and builds the dataset, and display.go is
// the GLFW window.
//
// # Flags, exit status, files
//
// The dataset comes from one of -field (with -res), -volume (a NIfTI-1
// file, resampled to -res along its longest axis on a software renderer)
// or -mesh (a PLY file); -iso, -reduction and -flat shape it. The window
// starts at -size, -view (any "(az,el)", "M(az,el)" or "(az,el)xZOOM";
// a NIfTI volume with an orientation is seen in RAS+, (0,0) facing the
// head upright, view.RAS) and -policy, with -lanes, -unbalanced and
// -hardware; -cost or the calibration file (-calibration, written by
// `bench calibrate`) give the loops' costs. "viewer -h" lists them all.
// Every flag and input file is checked before a window opens: a bad one
// is reported naming the flag and the value, with exit status 2 for
// command-line mistakes and 1 for everything else (an unreadable file, no
// display: run under `xvfb-run -a`). The viewer writes no file but the
// screenshots asked for (-screenshot, the S key into -shotdir), each
// through a temporary file renamed into place.
//
// The pictures are the headless renderer's: the same view, dataset and
// size give the same pixels in the window, in `bench render` and in
// rasterizer's tests, whatever the policy or lanes.
package main
