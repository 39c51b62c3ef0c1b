package scan

// SetSpin sets how often a look-back tile polls before it reduces a
// predecessor's input itself; 0 makes every wait a fallback.
func SetSpin(s *Scanner, polls int) { s.spin = polls }

// Fallbacks returns how many times look-back tiles reduced a predecessor
// themselves since the look-back state was made.
func Fallbacks(s *Scanner) uint32 {
	if s.state == nil {
		return 0
	}
	return s.state.Get(1)
}
