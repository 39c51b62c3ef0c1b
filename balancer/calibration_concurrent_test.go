package balancer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestCalibrationConcurrentSavers: six processes that each Set their own
// loop and Save, at once, to each of 40 files (a round a file) lose no key
// in any round. On an unlocked read-merge-write, 1 to 4 of the 6 survived.
func TestCalibrationConcurrentSavers(t *testing.T) {
	const savers, rounds = 6, 40
	if dir := os.Getenv("DPGL_TEST_CALIBRATION_SAVER"); dir != "" {
		// A child: save its loop to every round's file, in step with the
		// others, which started with it.
		loop := "loop " + os.Getenv("DPGL_TEST_CALIBRATION_LOOP")
		for r := 0; r < rounds; r++ {
			path := filepath.Join(dir, "cal-"+strconv.Itoa(r)+".json")
			cal, err := LoadCalibration(path)
			if err != nil {
				t.Fatal(err)
			}
			cal.Set("gpu", loop, LoopCost{CostIterations: 3, Runs: 1})
			if err := cal.Save(); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for s := 0; s < savers; s++ {
		c := exec.Command(os.Args[0], "-test.run=^TestCalibrationConcurrentSavers$")
		c.Env = append(os.Environ(), "DPGL_TEST_CALIBRATION_SAVER="+dir, fmt.Sprintf("DPGL_TEST_CALIBRATION_LOOP=%d", s))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("a saver failed: %v", err)
		}
	}
	lost := 0
	for r := 0; r < rounds; r++ {
		cal, err := LoadCalibration(filepath.Join(dir, "cal-"+strconv.Itoa(r)+".json"))
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		for s := 0; s < savers; s++ {
			if _, err := cal.Lookup("gpu", fmt.Sprintf("loop %d", s)); err != nil {
				t.Errorf("round %d: %v", r, err)
				lost++
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d keys lost", lost, savers*rounds)
	}
}
