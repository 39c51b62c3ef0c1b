// Package hostile generates the damaged, extreme and valid-but-odd input
// files that the commands' acceptance tests (bench, viewer) feed them:
// NIfTI-1 volumes, PLY meshes and DIMACS graphs. Each Case says what the
// command must do with it: fail, with a message naming the file and the
// field, or draw a picture (of a surface that covers a given share of the
// image, for a comparison with a well-formed twin). Run, Refused and
// Coverage are the tests' shared means of running a command as a child
// process and judging what it did.
//
// It is test support: only _test files import it.
package hostile
