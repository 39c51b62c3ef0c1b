// Package window makes an OpenGL context with a window through GLFW, for the
// interactive viewer. It is apart from package gpu so that headless programs
// (bench, tests) do not link X11.
//
// Open makes a Window: a GLFW window whose OpenGL context (4.6, 4.5 or 4.3
// core, the newest the driver gives) is an ordinary *gpu.Context, Window.Ctx,
// so that every kernel of dpgl runs in it as in a headless one, and the
// context has a default framebuffer to blit images into
// (gpu.Context.BlitToDefault) and read back (gpu.Context.ReadDefault).
// Close destroys the window and the context. Options.Hidden makes a window
// that is never shown, for tests and scripted captures.
//
// Without a display (no DISPLAY or WAYLAND_DISPLAY, or an X server that
// does not answer) Open returns an error wrapping ErrNoDisplay that says
// what to do: run under `xvfb-run -a`, or render headless with
// gpu.NewHeadless. It never panics for want of a display.
//
// # The GL thread
//
// All GLFW calls, like all GL calls, run on the context's GL thread: use
// Window.Ctx.Do around PollEvents, SwapBuffers and anything touching
// Window.GLFW. GLFW itself is initialized with the first window and
// terminated with the last, so windows may be opened and closed in turn.
package window
