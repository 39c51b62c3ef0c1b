package scan

// SetNoSharedHistogram makes s's histograms count straight into global
// memory, the path of more bins than shared memory holds.
func SetNoSharedHistogram(s *Scanner, on bool) { s.prim.noSharedHistogram = on }
