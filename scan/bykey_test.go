package scan_test

import (
	"fmt"
	"testing"

	"github.com/dpgl/dpgl/gpu"
	"github.com/dpgl/dpgl/gpu/gputest"
	"github.com/dpgl/dpgl/scan"
)

// TestScanByKey checks both scans by key against cpuScan restarted at
// the runs' heads, for every operator, one- and two-word keys, in place
// and not, and that a second run gives the same bits.
func TestScanByKey(t *testing.T) {
	c := gputest.Context(t)
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			scanByKeyCases[uint32, uint32](t, c, s, cfg, scan.Add, scan.Max, scan.Min)
			scanByKeyCases[float32, float32](t, c, s, cfg, scan.Add)
			scanByKeyCases[int32, int32](t, c, s, cfg, scan.Min)
		})
	}
}

func scanByKeyCases[K, V scan.Elem](t *testing.T, c *gpu.Context, s *scan.Scanner, cfg config, ops ...scan.Op) {
	rng := gputest.Rand(t)
	type key2 struct{ A, B K }
	for _, n := range primSizes(s, cfg.full) {
		ki := keyInputs[K](rng, n)
		for _, kind := range []string{"runs3", "runs70", "special"} {
			keys := ki[kind]
			heads := cpuHeads(keys)
			vals := input[V](rng, "random", n)
			kb := gpu.Array[K](upload(t, c, keys))
			// Two-word keys whose first words are all equal: the runs are
			// the second words'.
			k2 := make([]key2, n)
			for i, k := range keys {
				k2[i] = key2{keys[0], k}
			}
			k2b := gpu.Array[key2](upload(t, c, k2))
			vb := gpu.Array[V](upload(t, c, vals))
			for _, op := range ops {
				for _, inclusive := range []bool{true, false} {
					what := fmt.Sprintf("ScanByKey %s/%s %v inclusive=%v n=%d %s", kindOf[K](), kindOf[V](), op, inclusive, n, kind)
					w := cpuScan(vals, heads, op, ident[V](op), inclusive)
					run := func(dst gpu.Array[V], twoWords bool) {
						switch {
						case inclusive && twoWords:
							scan.InclusiveScanByKey(s, dst, vb, k2b, op)
						case inclusive:
							scan.InclusiveScanByKey(s, dst, vb, kb, op)
						case twoWords:
							scan.ExclusiveScanByKey(s, dst, vb, k2b, op)
						default:
							scan.ExclusiveScanByKey(s, dst, vb, kb, op)
						}
					}
					g := guarded(t, c, n, sentinel[V](), nil)
					run(g.View, false)
					first := g.Check(t, what)
					w.check(t, what, first)
					if inclusive {
						g.View.Write(0, make([]V, n))
						run(g.View, true)
						checkBits(t, what+" two-word keys (and a second run)", g.Check(t, what), first)
					}
					if op == ops[0] && kind == "runs70" {
						// In place.
						in := upload(t, c, vals)
						if inclusive {
							scan.InclusiveScanByKey(s, gpu.Array[V](in), gpu.Array[V](in), kb, op)
						} else {
							scan.ExclusiveScanByKey(s, gpu.Array[V](in), gpu.Array[V](in), kb, op)
						}
						checkBits(t, what+" in place", in.Download(), first)
					}
				}
			}
		}
	}
}

// TestUniqueByKey checks UniqueByKey and UniqueByKeyTo (whose count stays
// on the GPU) against cpuRuns, with outputs as long as the keys, exactly
// as long as the runs, and shorter than either.
func TestUniqueByKey(t *testing.T) {
	c := gputest.Context(t)
	type val struct{ A, B, C uint32 }
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				ki := keyInputs[float32](rng, n)
				for _, kind := range []string{"runs3", "runs70", "equal", "special"} {
					keys := ki[kind]
					vals := make([]val, n)
					for i := range vals {
						vals[i] = val{uint32(i), rng.Uint32(), ^uint32(i)}
					}
					wu, _, starts := cpuRuns(keys)
					wv := make([]val, len(starts))
					for r, st := range starts {
						wv[r] = vals[st]
					}
					kb := gpu.Array[float32](upload(t, c, keys))
					vb := gpu.Array[val](upload(t, c, vals))
					for _, m := range []int{n, len(wu) / 2} {
						what := fmt.Sprintf("UniqueByKey n=%d %s into %d", n, kind, m)
						gk := guarded(t, c, m, sentinel[float32](), nil)
						gv := guarded(t, c, m, val{7, 7, 7}, nil)
						if k := scan.UniqueByKey(s, gk.View, gv.View, kb, vb); k != len(wu) {
							t.Fatalf("%s: %d runs, want %d", what, k, len(wu))
						}
						k := min(m, len(wu))
						checkBits(t, what+" keys", gk.Check(t, what)[:k], wu[:k])
						checkBits(t, what+" values", gv.Check(t, what)[:k], wv[:k])

						what = "To: " + what
						cnt := guarded(t, c, 3, uint32(0xDEADBEEF), nil)
						gk.View.Write(0, make([]float32, m))
						gv.View.Write(0, make([]val, m))
						scan.UniqueByKeyTo(s, gk.View, gv.View, kb, vb, cnt.View, 1)
						checkBits(t, what+" count", cnt.Check(t, what), []uint32{0xDEADBEEF, uint32(len(wu)), 0xDEADBEEF})
						checkBits(t, what+" keys", gk.Check(t, what)[:k], wu[:k])
						checkBits(t, what+" values", gv.Check(t, what)[:k], wv[:k])
					}
				}
			}
		})
	}
}

// cpuNonTrivialRuns returns the offsets and lengths of the runs longer
// than one key.
func cpuNonTrivialRuns[K any](keys []K) (offsets, lengths []uint32) {
	_, l, st := cpuRuns(keys)
	for r := range l {
		if l[r] > 1 {
			offsets = append(offsets, uint32(st[r]))
			lengths = append(lengths, l[r])
		}
	}
	return offsets, lengths
}

// TestNonTrivialRuns checks NonTrivialRuns and NonTrivialRunsTo against
// a plain loop, with outputs as long as the keys, as the runs, and
// shorter (each cut at its own length).
func TestNonTrivialRuns(t *testing.T) {
	c := gputest.Context(t)
	type key2 struct{ A, B uint32 }
	for _, cfg := range primConfigs(t, c) {
		t.Run(cfg.name, func(t *testing.T) {
			s := primScanner(t, c, cfg)
			rng := gputest.Rand(t)
			for _, n := range primSizes(s, cfg.full) {
				ki := keyInputs[uint32](rng, n)
				for _, kind := range []string{"runs3", "runs70", "equal", "random"} {
					keys := ki[kind]
					wo, wl := cpuNonTrivialRuns(keys)
					k2 := make([]key2, n)
					for i, k := range keys {
						k2[i] = key2{k >> 1, k & 1}
					}
					kb := gpu.Array[uint32](upload(t, c, keys))
					k2b := gpu.Array[key2](upload(t, c, k2))
					for _, m := range [][2]int{{n, n}, {len(wo) / 2, len(wo)}, {len(wo), 0}} {
						what := fmt.Sprintf("NonTrivialRuns n=%d %s into %d and %d", n, kind, m[0], m[1])
						check := func(what string, go_, gl *gputest.Guarded[uint32]) {
							ko, kl := min(m[0], len(wo)), min(m[1], len(wo))
							checkBits(t, what+" offsets", go_.Check(t, what)[:ko], wo[:ko])
							checkBits(t, what+" lengths", gl.Check(t, what)[:kl], wl[:kl])
						}
						gOff := guarded(t, c, m[0], uint32(0xDEADBEEF), nil)
						gLen := guarded(t, c, m[1], uint32(0xDEADBEEF), nil)
						if k := scan.NonTrivialRuns(s, gOff.View, gLen.View, kb); k != len(wo) {
							t.Fatalf("%s: %d runs, want %d", what, k, len(wo))
						}
						check(what, gOff, gLen)
						what = "two-word keys: " + what
						if k := scan.NonTrivialRuns(s, gOff.View, gLen.View, k2b); k != len(wo) {
							t.Fatalf("%s: %d runs, want %d", what, k, len(wo))
						}
						check(what, gOff, gLen)
						what = "To: " + what
						cnt := guarded(t, c, 2, uint32(0xDEADBEEF), nil)
						gOff.View.Write(0, make([]uint32, m[0]))
						gLen.View.Write(0, make([]uint32, m[1]))
						scan.NonTrivialRunsTo(s, gOff.View, gLen.View, kb, cnt.View, 0)
						checkBits(t, what+" count", cnt.Check(t, what), []uint32{uint32(len(wo)), 0xDEADBEEF})
						check(what, gOff, gLen)
					}
				}
			}
		})
	}
}
