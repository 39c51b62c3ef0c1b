package experiment

import (
	"fmt"

	"github.com/dpgl/dpgl/balancer"
)

// datasetKey names a dataset of §4.1: a polygon set at a view, rendered
// with one Lanes value (the paper's machine size).
type datasetKey struct {
	set   int
	view  string
	lanes int
}

func (k datasetKey) String() string {
	return fmt.Sprintf("%s set, %s, lanes %s", SetNames[k.set], k.view, LanesLabel(k.lanes))
}

// costChecks is §4.1's check of each loop's overestimate over the frames
// of the policies that gather (CostEffective, Bounded): per dataset, the
// paper's rule, and per iteration, the balancer's warning. Table 1's rows
// give the longest loop of the run.
func costChecks(frames []*Frame, costs [2]LoopCost, t1 []Table1Row) [2]CostCheck {
	var cc [2]CostCheck
	var datasets [2]map[datasetKey]*balancer.Calibrator
	var order [2][]datasetKey // the datasets in the order they ran, so that ties name the first
	for i := range cc {
		cc[i] = CostCheck{Loop: LoopNames[i], Cost: costs[i].Cost, Paper: paperCosts[i]}
		datasets[i] = map[datasetKey]*balancer.Calibrator{}
	}
	for _, fr := range frames {
		if fr.Policy != balancer.CostEffective && fr.Policy != balancer.Bounded {
			continue
		}
		k := datasetKey{fr.Set, fr.View.Name, fr.Lanes}
		for i, l := range []*LoopRun{&fr.Scan, &fr.Z} {
			cc[i].addIteration(l, fmt.Sprintf("%s, %s", k, PolicyLabel(fr.Policy)))
			cal := datasets[i][k]
			if cal == nil {
				cal = &balancer.Calibrator{}
				datasets[i][k] = cal
				order[i] = append(order[i], k)
			}
			// A dataset's cost, the calibration's way: of a frame's
			// repetitions, the one of median cost counts.
			cal.AddMedian(l.Reps)
		}
	}
	for i := range cc {
		c := &cc[i]
		for _, k := range order[i] {
			c.addDataset(datasets[i][k], k.String())
		}
		for _, t := range t1 {
			c.Longest = max(c.Longest, [2]uint32{t.ScanMax, t.ZMax}[i])
		}
		c.Exceeded = c.DatasetsOver > 0
		c.IterationExceeded = c.Over > 0
		c.CannotPay = c.Longest > 0 && c.Cost >= float64(c.Longest)
	}
	return cc
}

// addIteration accounts a frame's most costly iteration.
func (c *CostCheck) addIteration(l *LoopRun, at string) {
	if l.Gathers == 0 {
		return
	}
	c.Gathered++
	if l.MaxCost > c.Cost {
		c.Over++
	}
	if l.MaxCost > c.MaxCost {
		c.MaxCost, c.At = l.MaxCost, at
	}
}

// addDataset accounts a dataset's cost: a Calibrator that counted no
// run (the loop never gathered there) has none.
func (c *CostCheck) addDataset(cal *balancer.Calibrator, at string) {
	if cal.Runs == 0 {
		return
	}
	c.Datasets++
	if cal.Cost > c.Cost {
		c.DatasetsOver++
	}
	if cal.Cost > c.DatasetCost {
		c.DatasetCost, c.DatasetAt = cal.Cost, at
	}
}
