package scan

// SetHistogramPath forces s's histograms to count per invocation
// ("private", where the bins fit), per work group ("shared", where they
// fit) or in global memory ("global"); "" chooses.
func SetHistogramPath(s *Scanner, path string) {
	s.prim.histPath = map[string]int{"": histAuto, "private": histPrivate, "shared": histShared, "global": histGlobal}[path]
}
