package cliflag

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dpgl/dpgl/internal/fileio"
)

// CheckOutDir checks, before any work is done, that the folder dir given
// by flag -name can take result files: it is a folder we can write in, or
// the nearest folder above it that exists is, so that os.MkdirAll will
// make it. It writes nothing that stays.
func CheckOutDir(name, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return Errorf(name, dir, "not a folder")
	case err == nil:
		return probe(name, dir, dir)
	case !errors.Is(err, fs.ErrNotExist):
		return Errorf(name, dir, "%v", unwrapPath(err))
	}
	for p := dir; ; {
		up := filepath.Dir(p)
		if up == p {
			return Errorf(name, dir, "no folder above it exists")
		}
		p = up
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			return Errorf(name, dir, "%s is not a folder", p)
		case err == nil:
			return probe(name, dir, p)
		case !errors.Is(err, fs.ErrNotExist):
			return Errorf(name, dir, "%v", err)
		}
	}
}

// CheckOutFile checks, before any work is done, that the file path given
// by flag -name can be written: it is not a folder, nor one of the run's
// inputs checked before it (CheckInFile), and its folder exists and takes
// files. An existing file is left as it is (the command replaces
// it at the end).
func CheckOutFile(name, path string) error {
	if path == "" {
		return Errorf(name, path, "want a file name")
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return Errorf(name, path, "is a folder, not a file")
	}
	if err := fileio.CheckNotInput(path); err != nil {
		return Errorf(name, path, "it is one of this run's inputs: give another file")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return Errorf(name, path, "its folder %s: %v", dir, unwrapPath(err))
	case !fi.IsDir():
		return Errorf(name, path, "%s is not a folder", dir)
	}
	return probe(name, path, dir)
}

// probe writes and removes a temporary file in dir: the only sure test of
// permission (mode bits do not tell about read-only mounts or ACLs).
func probe(name, value, dir string) error {
	f, err := os.CreateTemp(dir, ".dpgl-write-check-*")
	if err != nil {
		return Errorf(name, value, "cannot write in %s: %v", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath drops a PathError's path, which the message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckInFile checks, before any work is done, that the file path given by
// flag -name can be opened for reading and is not a folder.
//
// It opens with fileio.Open: a FIFO or a device is refused at once (unless
// DPGL_ALLOW_SPECIAL=1), and the file becomes one of the run's inputs,
// which no result may replace.
func CheckInFile(name, path string) error {
	f, err := fileio.Open(path)
	if err != nil {
		return Errorf(name, path, "%v", strings.TrimPrefix(unwrapPath(err).Error(), path+": "))
	}
	f.Close()
	return nil
}
