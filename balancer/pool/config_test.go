package pool

import (
	"strings"
	"testing"
)

func TestConfigRejects(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{Balance: 9}, "Config.Balance 9"},
		{Config{Detector: -1}, "Config.Detector -1"},
		{Config{Balance: RandomPolling, Detector: SinglePassRing}, "SinglePassRing detector with the RandomPolling pool"},
		{Config{Threshold: -2}, "Config.Threshold -2"},
		{Config{Detector: FixedEnergy, Energy: 7}, "Config.Energy 7 on 2 ranks: want at least 8"},
	}
	tr := NewLocal(2, Faults{})
	for _, c := range cases {
		_, err := Run(tr[0], c.cfg, nil, func([]byte, *Out) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error with %q", c.cfg, err, c.want)
		}
	}
	if _, err := ParseBalance("fair"); err == nil || !strings.Contains(err.Error(), `no pool "fair"`) {
		t.Errorf("ParseBalance(fair): %v", err)
	}
	if d, err := ParseDetector("dualpassring"); err != nil || d != DualPassRing {
		t.Errorf("ParseDetector(dualpassring) = %v, %v", d, err)
	}
}

// TestSinglePassRingRefusesSends: a task sent to another rank under the
// single pass is an error naming it, not termination declared early.
func TestSinglePassRingRefusesSends(t *testing.T) {
	tr := NewLocal(1, Faults{})
	_, err := Run(tr[0], Config{Balance: Static, Detector: SinglePassRing}, [][]byte{{1}}, func(task []byte, out *Out) error {
		if task[0] == 1 {
			out.Send(0, []byte{2}) // to itself: allowed, no message
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tr = NewLocal(2, Faults{})
	errs := make(chan error, 2)
	for r := 0; r < 2; r++ {
		go func() {
			_, err := Run(tr[r], Config{Balance: Static, Detector: SinglePassRing, Timeout: 2e9}, [][]byte{{byte(r)}}, func(task []byte, out *Out) error {
				if task[0] == 0 {
					out.Send(1, []byte{9})
				}
				return nil
			})
			errs <- err
		}()
	}
	var msgs []string
	for r := 0; r < 2; r++ {
		if err := <-errs; err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	if !strings.Contains(strings.Join(msgs, "\n"), "a task sent to rank 1 under SinglePassRing") {
		t.Fatalf("got %q", msgs)
	}
}

func TestFuncErrorAndAssign(t *testing.T) {
	tr := NewLocal(1, Faults{})
	_, err := Run(tr[0], Config{}, [][]byte{{1}}, func([]byte, *Out) error { return errFake })
	if err == nil || !strings.Contains(err.Error(), "pool: rank 0: fake") {
		t.Fatalf("got %v", err)
	}
	tasks := make([][]byte, 1000)
	dst := AssignRandom(tasks, 4, 3)
	n, same := 0, true
	for _, d := range dst {
		n += len(d)
		same = same && len(d) == 250
	}
	if n != 1000 || same {
		t.Fatalf("AssignRandom: counts %d %d %d %d: want 1000 in all, not all equal", len(dst[0]), len(dst[1]), len(dst[2]), len(dst[3]))
	}
}

type fakeErr struct{}

func (fakeErr) Error() string { return "fake" }

var errFake = fakeErr{}
