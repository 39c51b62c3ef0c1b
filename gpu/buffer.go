package gpu

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
)

// Storage is a byte range of a GL buffer that can be bound as a shader
// storage block: a *Buffer[T] or a Range[T]. Only this package implements
// it, so that no GL name leaves it: Overlap and SameRange tell what callers
// need to know about two ranges' buffers.
type Storage interface {
	ByteOffset() int
	ByteSize() int
	bufferID() uint32 // the GL buffer name; 0 for none
}

// Overlap reports whether a and b share a byte of one buffer. Empty ranges
// overlap nothing.
func Overlap(a, b Storage) bool {
	if a.ByteSize() == 0 || b.ByteSize() == 0 || a.bufferID() != b.bufferID() {
		return false
	}
	ao, bo := a.ByteOffset(), b.ByteOffset()
	return ao < bo+b.ByteSize() && bo < ao+a.ByteSize()
}

// SameRange reports whether a and b are the very same non-empty bytes of
// one buffer (an operation that runs in place accepts that overlap alone).
func SameRange(a, b Storage) bool {
	return Overlap(a, b) && a.ByteOffset() == b.ByteOffset() && a.ByteSize() == b.ByteSize()
}

// Buffer is a GPU storage buffer of n elements of T. T must be a fixed-size
// type without pointers whose Go layout matches the GLSL std430 layout of the
// block member it is bound to (uint32, int32, float32, or a struct of those
// with explicit padding). The zero-length buffer is valid: it owns no GL
// object and every operation on it is a no-op.
//
// Methods may be called from any goroutine; they run on the GL thread.
// They are ordered after every earlier GL command, dispatches included:
// where a shader may have written since the last BarrierBufferUpdate, Read,
// Download, Get, Write, Fill and Copy* issue that barrier themselves (once,
// however many follow).
type Buffer[T any] struct {
	ctx     *Context
	id      uint32
	n       int
	deleted bool
	label   string // SetLabel's
}

var checkedTypes sync.Map // reflect.Type -> error

// elemCheck panics unless T can be copied to and from the GPU byte for byte.
func elemCheck[T any](fn string) uintptr {
	t := reflect.TypeFor[T]()
	if e, ok := checkedTypes.Load(t); ok {
		if e != nil {
			panic(e)
		}
		return t.Size()
	}
	var err error
	if bad := pointerPart(t); bad != "" {
		err = fmt.Errorf("gpu: %s[%v]: element type holds %s, which cannot live in GPU memory", fn, t, bad)
	} else if t.Size() == 0 {
		err = fmt.Errorf("gpu: %s[%v]: element type has size 0", fn, t)
	}
	if err != nil {
		checkedTypes.Store(t, err)
		panic(err)
	}
	checkedTypes.Store(t, nil)
	return t.Size()
}

// pointerPart names the first part of t that is not plain data, or "".
func pointerPart(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return ""
	case reflect.Array:
		return pointerPart(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if s := pointerPart(t.Field(i).Type); s != "" {
				return s
			}
		}
		return ""
	}
	return "a " + t.Kind().String()
}

// NewBuffer allocates a zero-filled buffer of n elements. It returns an error
// when n elements exceed the driver's maximum shader storage block size
// (GL_MAX_SHADER_STORAGE_BLOCK_SIZE: 128 MiB on llvmpipe), or when the driver
// runs out of memory.
func NewBuffer[T any](c *Context, n int) (*Buffer[T], error) {
	size := elemCheck[T]("NewBuffer")
	if n < 0 {
		panic(fmt.Sprintf("gpu: NewBuffer[%v]: negative length %d", reflect.TypeFor[T](), n))
	}
	b := &Buffer[T]{ctx: c, n: n}
	if n == 0 {
		return b, nil
	}
	bytes := int64(n) * int64(size)
	if bytes > c.caps.MaxSSBOSize || bytes/int64(size) != int64(n) {
		return nil, fmt.Errorf("gpu: NewBuffer[%v]: %d elements (%d bytes) exceed the driver's maximum storage block of %d bytes (GL_MAX_SHADER_STORAGE_BLOCK_SIZE on %s)",
			reflect.TypeFor[T](), n, bytes, c.caps.MaxSSBOSize, c.caps.Renderer)
	}
	var err error
	c.Do(func() {
		glError()
		gl.CreateBuffers(1, &b.id)
		gl.NamedBufferStorage(b.id, int(bytes), nil, gl.DYNAMIC_STORAGE_BIT)
		if e := glError(); e != "" {
			gl.DeleteBuffers(1, &b.id)
			err = fmt.Errorf("gpu: NewBuffer[%v]: allocating %d bytes: %s", reflect.TypeFor[T](), bytes, e)
			return
		}
		c.track(KindBuffer, 1)
		// GL leaves new storage undefined; zero it so that results never
		// depend on what the allocator handed out.
		gl.ClearNamedBufferData(b.id, gl.R8UI, gl.RED_INTEGER, gl.UNSIGNED_BYTE, nil)
		c.check("glClearNamedBufferData")
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// NewBufferFrom allocates a buffer holding a copy of data.
func NewBufferFrom[T any](c *Context, data []T) (*Buffer[T], error) {
	b, err := NewBuffer[T](c, len(data))
	if err != nil {
		return nil, err
	}
	b.Write(0, data)
	return b, nil
}

// Len is the number of elements; 0 after Delete.
func (b *Buffer[T]) Len() int {
	if b.deleted {
		return 0
	}
	return b.n
}

// Deleted reports whether Delete has freed the buffer.
func (b *Buffer[T]) Deleted() bool { return b.deleted }

// Context is the context that owns the buffer.
func (b *Buffer[T]) Context() *Context { return b.ctx }

// bufferID is the GL buffer name (0 for a zero-length or deleted buffer).
func (b *Buffer[T]) bufferID() uint32 { return b.id }

// ByteOffset is 0: a Buffer is bound whole.
func (b *Buffer[T]) ByteOffset() int { return 0 }

// ByteSize is the size of the buffer in bytes; 0 after Delete.
func (b *Buffer[T]) ByteSize() int { return b.Len() * int(unsafe.Sizeof(*new(T))) }

func (b *Buffer[T]) live(fn string) {
	if b == nil {
		panic("gpu: " + fn + " on a nil *Buffer")
	}
	if b.deleted {
		if b.label != "" {
			panic("gpu: " + fn + " on a deleted Buffer: " + b.label)
		}
		panic(fmt.Sprintf("gpu: %s on a deleted Buffer[%T] (it had %d elements)", fn, *new(T), b.n))
	}
}

// SetLabel names the buffer in the panics about its misuse (use after
// Delete): the owner of a buffer that hands out views of it says there
// which view it was and why it is gone.
func (b *Buffer[T]) SetLabel(label string) {
	if b != nil {
		b.label = label
	}
}

func (b *Buffer[T]) span(fn string, off, n int) {
	b.live(fn)
	if off < 0 || n < 0 || off+n > b.n {
		panic(fmt.Sprintf("gpu: %s: elements [%d, %d) out of range of a buffer of %d", fn, off, off+n, b.n))
	}
}

func esize[T any]() int { return int(unsafe.Sizeof(*new(T))) }

// Write copies src into the buffer starting at element off.
func (b *Buffer[T]) Write(off int, src []T) {
	b.span("Buffer.Write", off, len(src))
	if len(src) == 0 {
		return
	}
	s := esize[T]()
	b.ctx.Do(func() {
		b.ctx.need(BarrierBufferUpdate) // after shader writes to the same bytes
		gl.NamedBufferSubData(b.id, off*s, len(src)*s, unsafe.Pointer(&src[0]))
		b.ctx.check("glNamedBufferSubData")
	})
}

// Read copies elements [off, off+len(dst)) into dst. It waits for the GPU.
func (b *Buffer[T]) Read(off int, dst []T) {
	b.span("Buffer.Read", off, len(dst))
	if len(dst) == 0 {
		return
	}
	s := esize[T]()
	b.ctx.Do(func() {
		b.ctx.need(BarrierBufferUpdate)
		gl.GetNamedBufferSubData(b.id, off*s, len(dst)*s, unsafe.Pointer(&dst[0]))
		b.ctx.check("glGetNamedBufferSubData")
		b.ctx.readBacks.Add(1)
	})
}

// Download returns the whole buffer as a new slice. It waits for the GPU.
func (b *Buffer[T]) Download() []T {
	b.live("Buffer.Download")
	dst := make([]T, b.n)
	b.Read(0, dst)
	return dst
}

// Get returns element i. It waits for the GPU.
func (b *Buffer[T]) Get(i int) T {
	var v [1]T
	b.Read(i, v[:])
	return v[0]
}

// clearFormats are the integer formats glClearBufferSubData fills with one
// element of each size.
var clearFormats = map[int][3]uint32{
	1:  {gl.R8UI, gl.RED_INTEGER, gl.UNSIGNED_BYTE},
	2:  {gl.R16UI, gl.RED_INTEGER, gl.UNSIGNED_SHORT},
	4:  {gl.R32UI, gl.RED_INTEGER, gl.UNSIGNED_INT},
	8:  {gl.RG32UI, gl.RG_INTEGER, gl.UNSIGNED_INT},
	12: {gl.RGB32UI, gl.RGB_INTEGER, gl.UNSIGNED_INT},
	16: {gl.RGBA32UI, gl.RGBA_INTEGER, gl.UNSIGNED_INT},
}

// repeatedWord returns the 32-bit word that the s bytes at p repeat, if
// s is a multiple of 4 and they repeat one.
func repeatedWord(p unsafe.Pointer, s int) (uint32, bool) {
	if s == 0 || s%4 != 0 {
		return 0, false
	}
	words := unsafe.Slice((*uint32)(p), s/4)
	for _, w := range words[1:] {
		if w != words[0] {
			return 0, false
		}
	}
	return words[0], true
}

// Fill sets every element to v.
func (b *Buffer[T]) Fill(v T) { b.FillRange(0, b.n, v) }

// FillRange sets elements [off, off+n) to v.
func (b *Buffer[T]) FillRange(off, n int, v T) {
	b.span("Buffer.FillRange", off, n)
	if n == 0 {
		return
	}
	s := esize[T]()
	b.ctx.Do(func() {
		b.ctx.need(BarrierBufferUpdate) // after shader writes to the same bytes
		p := unsafe.Pointer(&v)
		if w, ok := repeatedWord(p, s); ok {
			// One 32-bit word repeated: filled as words, whatever the
			// element. (llvmpipe fills a 4-byte pattern as words, any
			// wider one a copy at a time: an 8-byte one took 5x as long.)
			f := clearFormats[4]
			gl.ClearNamedBufferSubData(b.id, f[0], off*s, n*s, f[1], f[2], unsafe.Pointer(&w))
			b.ctx.check("glClearNamedBufferSubData")
			return
		}
		if f, ok := clearFormats[s]; ok {
			gl.ClearNamedBufferSubData(b.id, f[0], off*s, n*s, f[1], f[2], p)
			b.ctx.check("glClearNamedBufferSubData")
			return
		}
		// Other sizes: write a run of copies, then double it with
		// buffer-to-buffer copies.
		run := min(n, 4096)
		pat := make([]T, run)
		for i := range pat {
			pat[i] = v
		}
		gl.NamedBufferSubData(b.id, off*s, run*s, unsafe.Pointer(&pat[0]))
		for done := run; done < n; {
			k := min(done, n-done)
			gl.CopyNamedBufferSubData(b.id, b.id, off*s, (off+done)*s, k*s)
			done += k
		}
		b.ctx.check("Buffer.FillRange")
	})
}

// CopyFrom copies all of src, which must have the same length, into b.
func (b *Buffer[T]) CopyFrom(src *Buffer[T]) {
	if src == nil {
		panic("gpu: Buffer.CopyFrom: src is nil")
	}
	if src.n != b.n {
		panic(fmt.Sprintf("gpu: Buffer.CopyFrom: src has %d elements, dst %d", src.n, b.n))
	}
	b.CopyRange(0, src, 0, b.n)
}

// CopyRange copies n elements of src starting at srcOff to b at dstOff. The
// ranges may overlap only if src and b are different buffers.
func (b *Buffer[T]) CopyRange(dstOff int, src *Buffer[T], srcOff, n int) {
	if src == nil {
		panic("gpu: Buffer.CopyRange: src is nil")
	}
	b.span("Buffer.CopyRange (dst)", dstOff, n)
	src.span("Buffer.CopyRange (src)", srcOff, n)
	if src == b && dstOff < srcOff+n && srcOff < dstOff+n && n > 0 {
		panic(fmt.Sprintf("gpu: Buffer.CopyRange: overlapping ranges [%d,%d) and [%d,%d) of one buffer", srcOff, srcOff+n, dstOff, dstOff+n))
	}
	if n == 0 {
		return
	}
	s := esize[T]()
	b.ctx.Do(func() {
		b.ctx.need(BarrierBufferUpdate) // src or b written by a shader
		gl.CopyNamedBufferSubData(src.id, b.id, srcOff*s, dstOff*s, n*s)
		b.ctx.check("glCopyNamedBufferSubData")
	})
}

// Slice returns a view of elements [off, off+n) that can be bound as a
// storage block. Binding a view needs off*sizeof(T) to be a multiple of
// Caps.SSBOOffsetAlignment.
func (b *Buffer[T]) Slice(off, n int) Range[T] {
	b.span("Buffer.Slice", off, n)
	return Range[T]{b, off, n}
}

// Delete frees the GL buffer. It is idempotent. A deleted buffer has Len 0,
// and any other use of it (Read, Write, binding it or a Range of it, ...)
// panics naming it as deleted.
func (b *Buffer[T]) Delete() {
	if b == nil || b.deleted {
		return
	}
	b.deleted = true // n stays, for the messages about later use
	if b.id == 0 {
		return
	}
	b.ctx.Do(func() {
		gl.DeleteBuffers(1, &b.id)
		b.ctx.track(KindBuffer, -1)
	})
	b.id = 0
}

// Range is a view of part of a Buffer.
type Range[T any] struct {
	Buf *Buffer[T]
	Off int // first element
	N   int // number of elements
}

// bufferID is the GL name of the underlying buffer.
func (r Range[T]) bufferID() uint32 { return r.Buf.id }

func (b *Buffer[T]) deletedLabel() string { return b.label }
func (r Range[T]) deletedLabel() string   { return r.Buf.label }

// ByteOffset is the offset of the first element in bytes.
func (r Range[T]) ByteOffset() int { return r.Off * esize[T]() }

// ByteSize is the size of the view in bytes; 0 once its buffer is deleted.
func (r Range[T]) ByteSize() int { return r.Len() * esize[T]() }

// Len is the number of elements in the view; 0 once its buffer is deleted.
func (r Range[T]) Len() int {
	if r.Buf != nil && r.Buf.deleted {
		return 0
	}
	return r.N
}

// Read copies the view's elements [off, off+len(dst)) into dst.
func (r Range[T]) Read(off int, dst []T) {
	if off < 0 || off+len(dst) > r.N {
		panic(fmt.Sprintf("gpu: Range.Read: elements [%d, %d) out of a view of %d", off, off+len(dst), r.N))
	}
	r.Buf.Read(r.Off+off, dst)
}

// Write copies src into the view starting at element off.
func (r Range[T]) Write(off int, src []T) {
	if off < 0 || off+len(src) > r.N {
		panic(fmt.Sprintf("gpu: Range.Write: elements [%d, %d) out of a view of %d", off, off+len(src), r.N))
	}
	r.Buf.Write(r.Off+off, src)
}

// BindStorage binds s to the shader storage block binding point. A
// zero-size s unbinds the point. It must run on the GL thread.
func (c *Context) BindStorage(binding int, s Storage) {
	c.mustOnThread("BindStorage")
	if binding < 0 || binding >= c.caps.MaxSSBOBindings {
		panic(fmt.Sprintf("gpu: BindStorage: binding %d out of the driver's 0..%d", binding, c.caps.MaxSSBOBindings-1))
	}
	if es, ok := s.(elemStorage); ok {
		if es.isDeleted() {
			if l, ok := s.(interface{ deletedLabel() string }); ok && l.deletedLabel() != "" {
				panic(fmt.Sprintf("gpu: BindStorage: binding %d: a deleted Buffer: %s", binding, l.deletedLabel()))
			}
			panic(fmt.Sprintf("gpu: BindStorage: binding %d: the %s[%s] was deleted", binding, storageKind(s), es.elemType()))
		}
		if o := es.owner(); o != nil && o != c {
			panic(fmt.Sprintf("gpu: BindStorage: binding %d: the %s[%s] belongs to another Context (GL objects cannot be shared between contexts)", binding, storageKind(s), es.elemType()))
		}
	}
	if c.bound == nil {
		c.bound = make([]Storage, c.caps.MaxSSBOBindings)
	}
	if s == nil || s.ByteSize() == 0 {
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, uint32(binding), 0)
		c.bound[binding] = noStorage{}
		return
	}
	if s.bufferID() == 0 {
		what := "buffer was deleted"
		if l, ok := s.(interface{ deletedLabel() string }); ok && l.deletedLabel() != "" {
			what = "a deleted Buffer: " + l.deletedLabel()
		}
		panic(fmt.Sprintf("gpu: BindStorage: binding %d: %s", binding, what))
	}
	c.bound[binding] = s
	off := s.ByteOffset()
	if a := c.caps.SSBOOffsetAlignment; a > 0 && off%a != 0 {
		panic(fmt.Sprintf("gpu: BindStorage: binding %d: byte offset %d is not a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (%d)", binding, off, a))
	}
	gl.BindBufferRange(gl.SHADER_STORAGE_BUFFER, uint32(binding), s.bufferID(), off, s.ByteSize())
	c.check("glBindBufferRange")
}

// Array is a typed run of elements on the GPU: a whole *Buffer[T] or a
// Range[T] of one. Kernels take Arrays so that callers can pass part of a
// buffer (and tests can surround outputs with guard regions).
type Array[T any] interface {
	Storage
	Len() int
	Read(off int, dst []T)
	Write(off int, src []T)
	// Base is the buffer the array lives in, and the index of its first
	// element there.
	Base() (*Buffer[T], int)
}

// Base returns b and 0.
func (b *Buffer[T]) Base() (*Buffer[T], int) { return b, 0 }

// Base returns the underlying buffer and the view's first element.
func (r Range[T]) Base() (*Buffer[T], int) { return r.Buf, r.Off }
