package experiment

import (
	"fmt"
	"strings"
)

// FmtLoss prints a loss (a time ratio less 1) as a percentage, or a gain
// as "faster".
func FmtLoss(x float64) string {
	if x < 0 {
		return fmt.Sprintf("%.0f%% faster", -100*x)
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// headline is the paper's headline figures beside this run's.
func (r *Report) headline() {
	r.Headline = []HeadlineRow{{"setting", "CM-5, 32-512 processors, 512x512",
		fmt.Sprintf("%s, lanes %s, %dx%d", r.Meta.Renderer, strings.Join(r.Params.Lanes, ", "), r.Params.Width, r.Params.Height)}}
	if sp, ok := r.Summary.UnbalancedSpeedup["LB"]; ok {
		r.Headline = append(r.Headline, HeadlineRow{"LB speedup over OR, unbalanced set", "8-33x", fmt.Sprintf("%.1f-%.1fx", sp.Min, sp.Max)})
	}
	if l, ok := r.Summary.BalancedLoss["LB"]; ok {
		r.Headline = append(r.Headline, HeadlineRow{"LB's worst loss against OR, balanced set", "27%", FmtLoss(l.Max)})
	}
	r.Headline = append(r.Headline, HeadlineRow{"LB on unbalanced vs OR on balanced", "within 1.7x", fmt.Sprintf("within %.1fx", r.Summary.LBVsBalancedOR.Max)})
	r.Headline = append(r.Headline, HeadlineRow{"cost overestimates, scan / z-buffer", "20 / 32 iterations", fmt.Sprintf("%.1f / %.1f iterations", r.Costs[0].Cost, r.Costs[1].Cost)})
	over := "no"
	for _, cc := range r.CostCheck {
		if cc.Exceeded {
			over = fmt.Sprintf("yes (%s: %.1f at %s)", cc.Loop, cc.DatasetCost, cc.DatasetAt)
			break
		}
	}
	r.Headline = append(r.Headline, HeadlineRow{"a dataset's cost exceeded the overestimate (§4.1)", "no (all below)", over})
	bs := r.Summary.BalancedSet
	r.Headline = append(r.Headline, HeadlineRow{"LB balanced the balanced set", "-", fmt.Sprintf("in %d of %d frames", bs.FramesBalanced, bs.Frames)})
	if sp, ok := r.Summary.UnbalancedSpeedup["Bounded"]; ok {
		r.Headline = append(r.Headline, HeadlineRow{"Bounded (improved) speedup, unbalanced set", "-", fmt.Sprintf("%.1f-%.1fx", sp.Min, sp.Max)})
	}
	if l, ok := r.Summary.BalancedLoss["Bounded"]; ok {
		r.Headline = append(r.Headline, HeadlineRow{"Bounded's worst loss, balanced set", "-", FmtLoss(l.Max)})
	}
}
