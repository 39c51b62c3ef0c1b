package scan

// SetSmallPath makes s's Offsets and MarkedIndices take the one-group
// kernel (on) or not, whatever smallPathPays says, reading the input's
// whole quads as storage blocks where storageBlocks (as on a driver whose
// texel limit is below its storage blocks' size). It reports whether the
// kernel may read texels at all on this driver.
func SetSmallPath(s *Scanner, on, storageBlocks bool) (texels bool) {
	s.c.Do(func() {
		s.smallPath.delete()
		s.smallPath = nil
		k := s.small()
		k.on, k.storageBlocks = on, storageBlocks
		texels = k.tex
	})
	return texels
}

// SmallPathPays is smallPathPays.
func SmallPathPays(s *Scanner) bool { return smallPathPays(s) }

// SmallGroup is small.comp's work group.
const SmallGroup = smallGroup
