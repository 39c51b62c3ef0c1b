// Package app is the viewer's main loop, apart from the window system: it
// turns input (through package control) into frames of a scene (package
// scene), composes the statistics and help panels (package overlay), and
// hands both to a Display, which a GLFW window implements in package main
// and tests fake.
//
//	Display input ──▶ control.State ──(Take: what changed)──▶ App
//	App ──(scene.Render only when something changed)──▶ display texture
//	App ──(Display.Present: texture, panels; a screenshot on request)──▶ window
//
// Between frames the loop sleeps in Display.Wait (glfw.WaitEvents): an idle
// viewer uses no CPU. A background decimation wakes it through Display.Wake
// when its polygon set is ready.
//
// New makes an App from a Config (the dataset pair, the first view and
// settings, the isovalue range, where screenshots go) for a Display; Run
// is the interactive loop, until the user quits or closes the window, and
// Script the scripted one (render n frames, print their statistics, save a
// screenshot), which tests and `viewer -frames` use. WriteImage saves a
// screenshot in the format its extension names, through a temporary file,
// so that a failure leaves no half-written file.
//
// Frames are the compute renderer's images, so a state (view, settings,
// window size) gives the same pixels on every run, whatever the policy or
// lanes; the statistics panel's times are measured and vary.
//
// # Goroutines and the GL thread
//
// An App is used from one goroutine. Its GL work runs on the context's GL
// thread through gpu.Context.Do (inside package scene); the Display does
// the same for its GLFW calls. Only Display.Wake may be called from any
// goroutine: the background decimation calls it when its polygon set is
// ready.
package app
