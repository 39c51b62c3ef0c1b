package gpu

import (
	"time"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// Stamp is a GPU timestamp query (glQueryCounter with GL_TIMESTAMP): the
// GPU's clock when every command issued before Record has completed.
// GL_TIME_ELAPSED is not used: llvmpipe reports it as ~1 ns.
type Stamp struct {
	ctx *Context
	id  uint32
	set bool
}

// NewStamp creates a timestamp query.
func (c *Context) NewStamp() *Stamp {
	s := &Stamp{ctx: c}
	c.Do(func() {
		gl.CreateQueries(gl.TIMESTAMP, 1, &s.id)
		c.track(KindQuery, 1)
		c.check("glCreateQueries")
	})
	return s
}

// Record samples the GPU clock after the commands issued so far. It must run
// on the GL thread.
func (s *Stamp) Record() {
	s.ctx.mustOnThread("Stamp.Record")
	gl.QueryCounter(s.id, gl.TIMESTAMP)
	s.ctx.check("glQueryCounter")
	if s.ctx.flushStamps {
		// llvmpipe bins a timestamp into its pending draw scene and stamps
		// it when the scene is rasterized, at the next flush, which a
		// compute dispatch is not: unflushed, a stage's two stamps could
		// both wait for a later read-back and the stage's time land in
		// another's (the viewer's frames showed setup taking the tiles'
		// time). Not on zink, whose timestamps are Vulkan's and need no
		// flush, and where a flush after each one made a later wait for
		// a result hang now and then (Mesa 26.1 over lavapipe: 2 of 16
		// runs of the balancer's zink tests, 0 of 16 without).
		gl.Flush()
	}
	s.set = true
}

// Ready reports whether the result is available, without waiting.
func (s *Stamp) Ready() bool {
	if !s.set {
		return false
	}
	var ok uint32
	s.ctx.Do(func() {
		gl.GetQueryObjectuiv(s.id, gl.QUERY_RESULT_AVAILABLE, &ok)
		s.ctx.check("glGetQueryObjectuiv(QUERY_RESULT_AVAILABLE)")
	})
	return ok != 0
}

// Nanos waits for the result and returns the GPU clock in nanoseconds.
func (s *Stamp) Nanos() uint64 {
	if !s.set {
		panic("gpu: Stamp.Nanos before Record")
	}
	var v uint64
	s.ctx.Do(func() {
		gl.GetQueryObjectui64v(s.id, gl.QUERY_RESULT, &v)
		s.ctx.check("glGetQueryObjectui64v(QUERY_RESULT)")
	})
	return v
}

// Delete frees the query. It is idempotent.
func (s *Stamp) Delete() {
	if s == nil || s.id == 0 {
		return
	}
	s.ctx.Do(func() {
		gl.DeleteQueries(1, &s.id)
		s.ctx.track(KindQuery, -1)
	})
	s.id = 0
}

// Timer measures GPU time between Start and Stop with two timestamps.
type Timer struct {
	start, stop *Stamp
}

// NewTimer creates a timer.
func (c *Context) NewTimer() *Timer {
	return &Timer{c.NewStamp(), c.NewStamp()}
}

// Start records the start timestamp (on the GL thread).
func (t *Timer) Start() { t.start.Record() }

// Stop records the stop timestamp (on the GL thread).
func (t *Timer) Stop() { t.stop.Record() }

// Ready reports, without waiting, whether Elapsed would return at once.
func (t *Timer) Ready() bool { return t.stop.Ready() && t.start.Ready() }

// Elapsed waits for both timestamps and returns the GPU time between them.
func (t *Timer) Elapsed() time.Duration {
	a, b := t.start.Nanos(), t.stop.Nanos()
	if b < a {
		return 0
	}
	return time.Duration(b - a)
}

// TryElapsed returns the GPU time if both timestamps are ready, without
// stalling the pipeline.
func (t *Timer) TryElapsed() (time.Duration, bool) {
	if !t.Ready() {
		return 0, false
	}
	return t.Elapsed(), true
}

// Delete frees both queries.
func (t *Timer) Delete() {
	t.start.Delete()
	t.stop.Delete()
}

// GPUTime reads the GPU clock now (glGetInteger64v(GL_TIMESTAMP)), in
// nanoseconds, without waiting for queued commands.
func (c *Context) GPUTime() uint64 {
	var v int64
	c.Do(func() {
		gl.GetInteger64v(gl.TIMESTAMP, &v)
		c.check("glGetInteger64v(GL_TIMESTAMP)")
	})
	return uint64(v)
}
