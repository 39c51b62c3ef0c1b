// Package fileio is the one way dpgl's commands and libraries open an input
// and write a result, so that no run loses data or hangs on a file:
//
//   - Open opens an input: a regular file only (a FIFO or a device only
//     when the environment variable DPGL_ALLOW_SPECIAL=1 says so, since
//     opening a FIFO without a writer blocks forever and a device such as
//     /dev/zero never ends). It remembers the file's device and inode as
//     one of the run's inputs.
//   - WriteFile and Batch write a result: into a temporary file in the
//     target's folder, synced, then renamed over the target, so that a
//     reader, or a run that failed half way (a full disk), sees the old
//     file or the new one, never part of one. A Batch renames all of its
//     files only once every one is written, so a failed run leaves the
//     folder as it found it. A target that is one of the run's inputs
//     (the same device and inode, whatever its name) is refused.
//   - Update read-modify-writes a file that several processes share (the
//     balancer's calibration file) under an advisory lock (flock) on a
//     lock file beside it, with the same atomic rename, so that concurrent
//     writers never lose each other's changes.
//
// Faults can be injected for tests: DPGL_FILEIO_FAIL_AFTER=N (or
// SetFailAfter) makes every file written fail with ENOSPC after N bytes,
// as a full disk would.
package fileio
