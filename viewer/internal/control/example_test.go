package control_test

import (
	"fmt"

	"github.com/dpgl/dpgl/balancer"
	"github.com/dpgl/dpgl/rasterizer/view"
	"github.com/dpgl/dpgl/viewer/internal/control"
)

// Keys change the settings and say what must be redone: B and L
// reconfigure the loops, 4 goes to the paper's M(45,45), H only shows the
// help again.
func ExampleState() {
	lo, hi := [3]float32{-1, -1, -1}, [3]float32{1, 1, 1}
	s := control.NewState(lo, hi, view.Paper()[0], control.Settings{Mode: control.PaperLoops, Policy: balancer.Never}, 512, 512, 0, 1, 0.125)
	s.Key(control.KeyPolicy)
	s.Key(control.KeyLanes)
	fmt.Println(s.Settings.Policy, s.Settings.Lanes, s.Take() == control.ChangeLoops)
	s.Key(control.KeyView4)
	fmt.Println(s.Camera.Base.Name, s.Camera.Magnification, s.Take().Render())
	s.Key(control.KeyHelp)
	fmt.Println(s.Settings.Help, s.Take().Render())
	// Output:
	// Always 32 true
	// M(45,45) 3 true
	// true false
}
