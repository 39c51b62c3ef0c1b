package gpu

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/dpgl/dpgl/shaders"
)

// ShadersPath is how messages name a file of dpgl's own shader tree that a
// user's kernel included.
const ShadersPath = "github.com/dpgl/dpgl/shaders/"

// WithShaders returns the source tree in which a user's kernels find their
// includes: a name is looked up in user first, then in dpgl's embedded
// shaders (shaders.FS), so that a kernel of one's own can
// #include "balancer/loop.glsl" or "include/common.glsl" beside its own
// headers, and a file of user shadows dpgl's of the same name. The
// programs built from it (UserProgram) name each file in their compile
// errors by where it came from.
func WithShaders(user fs.FS) fs.FS {
	if user == nil {
		panic("gpu: WithShaders: user is nil")
	}
	return &userFS{user: user}
}

// userFS layers the user's files over dpgl's shader tree.
type userFS struct {
	user fs.FS
	dir  string // the user's directory on disk, for messages ("" when not a directory)
}

func (u *userFS) Open(name string) (fs.File, error) {
	f, err := u.user.Open(name)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return shaders.FS.Open(name)
}

// fileName says where the file name of this tree lives: the user's path
// (under the directory it came from) or dpgl's shader tree.
func (u *userFS) fileName(name string) string {
	if _, err := fs.Stat(u.user, name); err != nil {
		if _, err := fs.Stat(shaders.FS, name); err == nil {
			return ShadersPath + name
		}
	}
	if u.dir != "" {
		return filepath.Join(u.dir, filepath.FromSlash(name))
	}
	return name
}

// UserProgram builds the compute program name of the user's source tree
// fsys (an os.DirFS, an embed.FS, ...) with dpgl's shaders behind it for
// #include (WithShaders). Compile errors name the user's files and dpgl's
// by their paths and lines. Programs are cached by their expanded text, as
// Program's are, and live as long as the context.
func (c *Context) UserProgram(fsys fs.FS, name string, defines map[string]string) (*Program, error) {
	if fsys == nil {
		panic("gpu: UserProgram: fsys is nil")
	}
	return c.ProgramFS(&userFS{user: fsys}, name, defines)
}

// UserProgramFile builds the compute program in the file at path (a path
// of the operating system). Its includes are looked up beside it, then in
// dpgl's shaders; compile errors name the files by their paths.
func (c *Context) UserProgramFile(file string, defines map[string]string) (*Program, error) {
	dir, name := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	return c.ProgramFS(&userFS{user: os.DirFS(dir), dir: filepath.Clean(dir)}, name, defines)
}

// UserProgramSource builds the compute program whose GLSL is src, named
// name in messages, with dpgl's shaders available to #include.
func (c *Context) UserProgramSource(name, src string, defines map[string]string) (*Program, error) {
	if name == "" || !fs.ValidPath(name) {
		panic(fmt.Sprintf("gpu: UserProgramSource: name %q is not a valid file name (want a slash-separated relative path such as \"mine.comp\")", name))
	}
	return c.ProgramFS(&userFS{user: sourceFS{name, src}}, name, defines)
}

// sourceFS is a tree of one file.
type sourceFS struct{ name, src string }

func (s sourceFS) Open(name string) (fs.File, error) {
	if name != s.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &sourceFile{s: s, r: strings.NewReader(s.src)}, nil
}

type sourceFile struct {
	s sourceFS
	r *strings.Reader
}

func (f *sourceFile) Stat() (fs.FileInfo, error) { return sourceInfo(f.s), nil }
func (f *sourceFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *sourceFile) Close() error               { return nil }

type sourceInfo sourceFS

func (i sourceInfo) Name() string       { return path.Base(i.name) }
func (i sourceInfo) Size() int64        { return int64(len(i.src)) }
func (i sourceInfo) Mode() fs.FileMode  { return 0o444 }
func (i sourceInfo) ModTime() time.Time { return time.Time{} }
func (i sourceInfo) IsDir() bool        { return false }
func (i sourceInfo) Sys() any           { return nil }
