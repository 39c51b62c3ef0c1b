// Package argcheck holds the argument checks that scan and scan/radix make
// before any GL call, so that both name a programmer's misuse the same way:
// a panic whose message begins "pkg: Function: ".
//
// A Checker carries one package's prefix, the name of the object whose
// context arrays must share (Scanner, Sorter) and its length limit; Array,
// SameLen, Disjoint and RecordWords check one argument each and panic with
// the message the package's doc promises ("scan: ExclusiveScan: src has 5
// elements but dst has 6"). Overlap (from gpu.Overlap and gpu.SameRange)
// tells an in-place call (the very same range) from an overlap that is
// refused. The checks make no GL call and may run on any goroutine; the
// messages are part of the packages' tested behaviour, so a change here
// changes both packages' tests alike.
package argcheck
