package gpu

// Barriers returns how many memory barriers the context has issued and the
// bits of the last one, for the tests of the barrier bookkeeping.
func (c *Context) Barriers() (n int, last Barrier) {
	c.Do(func() { n, last = c.barriers, c.lastBarrier })
	return n, last
}

// LockstepLanes is lockstepLanes, for the test of the renderer strings.
func LockstepLanes(renderer string) int { return lockstepLanes(renderer) }
