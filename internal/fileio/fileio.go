package fileio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

// fileID is what names a file whatever path reaches it.
type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// inputs are the files this process opened with Open: its run's inputs.
var inputs struct {
	sync.Mutex
	ids map[fileID]string
}

// AddInput records path as one of the run's inputs, so that no result is
// written over it; Open does so itself. A path that cannot be stated is
// ignored (there is nothing there to protect).
func AddInput(path string) {
	if fi, err := os.Stat(path); err == nil {
		addInput(fi, path)
	}
}

func addInput(fi fs.FileInfo, path string) {
	id, ok := idOf(fi)
	if !ok {
		return
	}
	inputs.Lock()
	defer inputs.Unlock()
	if inputs.ids == nil {
		inputs.ids = map[fileID]string{}
	}
	if _, ok := inputs.ids[id]; !ok {
		inputs.ids[id] = path
	}
}

// ResetInputs forgets the recorded inputs (for tests that run several
// commands in one process).
func ResetInputs() {
	inputs.Lock()
	inputs.ids = nil
	inputs.Unlock()
}

// CheckNotInput returns an error when path is, by device and inode, one of
// the files the run reads (a link or another name for it included). A path
// that does not exist yet is no input.
func CheckNotInput(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	id, ok := idOf(fi)
	if !ok {
		return nil
	}
	inputs.Lock()
	in, found := inputs.ids[id]
	inputs.Unlock()
	if !found {
		return nil
	}
	// The input's own path must still name that file: once it is
	// removed, its inode number can be given to a new file (a result).
	if fi, err := os.Stat(in); err != nil {
		return nil
	} else if now, ok := idOf(fi); !ok || now != id {
		return nil
	}
	if in == path {
		return fmt.Errorf("%s: refusing to write over one of this run's inputs", path)
	}
	return fmt.Errorf("%s: refusing to write over one of this run's inputs (it is the file %s)", path, in)
}

// AllowSpecialEnv is the environment variable that lets Open read a FIFO
// or a device.
const AllowSpecialEnv = "DPGL_ALLOW_SPECIAL"

func allowSpecial() bool { return os.Getenv(AllowSpecialEnv) == "1" }

// Open opens path for reading and records it as an input of the run. It
// refuses a folder, and a FIFO, socket or device unless DPGL_ALLOW_SPECIAL=1:
// it opens without blocking and checks the opened file, so that a FIFO with
// no writer is refused at once, not waited on forever.
func Open(path string) (*os.File, error) { return open(path, true) }

// OpenShared is Open for a file that the run also updates (through
// Update): it is not recorded as an input.
func OpenShared(path string) (*os.File, error) { return open(path, false) }

func open(path string, record bool) (*os.File, error) {
	special := allowSpecial()
	flags := os.O_RDONLY
	if !special {
		flags |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		f.Close()
		return nil, fmt.Errorf("%s: a folder, not a file", path)
	case !m.IsRegular() && !special:
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file but %s; set %s=1 to read one", path, kindOf(m), AllowSpecialEnv)
	}
	if record {
		addInput(fi, path)
	}
	return f, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a " + m.Type().String() + " file"
}

// ReadFile is os.ReadFile through Open, reading at most limit bytes: a
// longer file is an error naming its size, found before it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this file may have", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than the %d bytes this file may have", path, limit)
	}
	return data, nil
}

// failAfter, when at least 0, is the number of bytes after which every
// file written fails with ENOSPC (SetFailAfter, DPGL_FILEIO_FAIL_AFTER).
var failAfter atomic.Int64

func init() {
	failAfter.Store(-1)
	if s := os.Getenv("DPGL_FILEIO_FAIL_AFTER"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
			failAfter.Store(n)
		}
	}
}

// SetFailAfter makes every file written from now on fail with ENOSPC after
// n bytes (n < 0: never), as a full disk would; it returns the previous
// setting. For tests.
func SetFailAfter(n int64) (previous int64) { return failAfter.Swap(max(n, -1)) }

// faultWriter fails once more than left bytes were asked of it.
type faultWriter struct {
	w    io.Writer
	left int64
}

func (fw *faultWriter) Write(p []byte) (int, error) {
	if int64(len(p)) <= fw.left {
		fw.left -= int64(len(p))
		return fw.w.Write(p)
	}
	n, _ := fw.w.Write(p[:fw.left])
	fw.left = 0
	return n, &fs.PathError{Op: "write", Path: "(injected fault)", Err: syscall.ENOSPC}
}

// Batch writes files into one folder so that they appear together: Write
// puts each into a temporary file there, synced; Commit renames them all
// over their targets; Abort, or a failed Write, removes every temporary
// file and leaves the folder as it was.
type Batch struct {
	dir     string
	pending []pending
	failed  error
}

type pending struct{ tmp, path string }

// NewBatch starts a batch of files in dir, making dir if need be.
func NewBatch(dir string) (*Batch, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Batch{dir: dir}, nil
}

// Dir is the batch's folder.
func (b *Batch) Dir() string { return b.dir }

// Write writes data to the batch's file name (a name in its folder, not a
// path) with mode 0644, or keeps the mode of the file it will replace.
func (b *Batch) Write(name string, data []byte) error {
	return b.WriteFunc(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write with the bytes from write. After a failed Write the
// batch is aborted: every later call fails.
func (b *Batch) WriteFunc(name string, write func(io.Writer) error) error {
	if b.failed != nil {
		return b.failed
	}
	if filepath.Base(name) != name {
		panic(fmt.Sprintf("fileio: Batch.Write: %q is not a file name", name))
	}
	tmp, err := writeTemp(filepath.Join(b.dir, name), write)
	if err != nil {
		b.Abort()
		b.failed = err
		return err
	}
	b.pending = append(b.pending, pending{tmp, filepath.Join(b.dir, name)})
	return nil
}

// Commit renames every file written over its target and syncs the folder.
func (b *Batch) Commit() error {
	if b.failed != nil {
		return b.failed
	}
	for i, p := range b.pending {
		// Checked again: an input may have been opened since Write.
		err := CheckNotInput(p.path)
		if err == nil {
			err = os.Rename(p.tmp, p.path)
		}
		if err != nil {
			b.pending = b.pending[i:]
			b.Abort()
			b.failed = err
			return err
		}
	}
	b.pending = nil
	return syncDir(b.dir)
}

// Abort removes the temporary files of the batch's writes.
func (b *Batch) Abort() {
	for _, p := range b.pending {
		os.Remove(p.tmp)
	}
	b.pending = nil
	if b.failed == nil {
		b.failed = errors.New("fileio: batch aborted")
	}
}

// WriteFile writes data to path atomically (see the package doc).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write writes what write gives to path atomically: a failed write, or
// one that returns an error, leaves path as it was.
func Write(path string, write func(io.Writer) error) error {
	tmp, err := writeTemp(path, write)
	if err != nil {
		return err
	}
	if err := CheckNotInput(path); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeTemp writes a synced temporary file beside path, with the mode of
// the file at path (0644 for a new one), and returns its name.
func writeTemp(path string, write func(io.Writer) error) (string, error) {
	if err := CheckNotInput(path); err != nil {
		return "", err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return "", fmt.Errorf("%s: a folder, not a file", path)
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	var w io.Writer = f
	if n := failAfter.Load(); n >= 0 {
		w = &faultWriter{w: f, left: n}
	}
	err = write(w)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), mode)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return f.Name(), nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// Update read-modify-writes the file at path under an exclusive advisory
// lock (flock on "."+name+".lock" beside it, which stays): update gets the
// file's bytes (nil when there is none) and returns the new ones, which are
// written atomically. Processes that all change path through Update never
// lose each other's changes. The folder is made if need be.
func Update(path string, update func(old []byte) ([]byte, error)) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	unlock, err := lock(filepath.Join(dir, "."+filepath.Base(path)+".lock"))
	if err != nil {
		return err
	}
	defer unlock()
	var old []byte
	switch f, err := OpenShared(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		old, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	data, err := update(old)
	if err != nil {
		return err
	}
	return WriteFile(path, data)
}

// lock takes an exclusive flock on the file at path, creating it.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: lock: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
