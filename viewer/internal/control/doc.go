// Package control is the interactive viewer's state and what input does to
// it, apart from any window system or GL, so that it can be tested alone:
//
//	keys, mouse, resize ──(State handlers)──▶ Camera, Settings ──(Take)──▶ Change
//	Camera ──(Matrices)──▶ view.Camera for the renderer
//
// The camera orbits the dataset's bounding sphere: a base view (one of the
// paper's four, view.Paper) turned by an arcball rotation (Shoemake's: a
// drag turns the point under the cursor on a virtual sphere toward the
// point it moves to) kept as a quaternion, magnified by the scroll wheel
// and panned by the right button. The projection is the paper's
// orthographic one, so a pan moves the picture by exactly the pixels the
// cursor moved. Selecting a view resets rotation, magnification and pan,
// and gives the matrices of view.View.Fit exactly: the viewer's paper views
// are the headless renderer's.
//
// Settings are the renderer's knobs (the balancer policy and Lanes of both
// loops, the polygon set, the isovalue) and the display's (the hardware
// reference, the overlay, the help). Each handler records a Change; the
// viewer renders a frame only for changes that need one (Change.Render).
package control
