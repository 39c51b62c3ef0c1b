package radix

// SetSpin sets how often a look-back digit polls a predecessor before the
// tile counts that predecessor's keys itself; 0 makes every wait a fallback.
func SetSpin(s *Sorter, polls int) { s.spin = polls }

// SetNoPublish makes look-back tiles publish nothing (and never wait), so
// that each counts every predecessor itself.
func SetNoPublish(s *Sorter) { s.spin, s.nopub = 0, true }

// Fallbacks returns how many times look-back tiles of the last one-sweep
// sort (all its passes) counted a predecessor themselves.
func Fallbacks(s *Sorter) uint32 {
	if s.state == nil {
		return 0
	}
	return s.state.Get(32)
}

// CPUDriver is the tuning's test for a CPU renderer, which picks
// PathCounts for PathAuto.
var CPUDriver = cpuDriver
