// Package cliflag is the one place where the commands (bench and its
// subcommands, the viewer) validate their numeric flags. Its flag.Value
// types refuse a value as it is parsed, so that no command ever sees a NaN
// isovalue, an infinite cost or a negative count, and every refusal names
// the flag and the value:
//
//	invalid value "NaN" for flag -iso: want a finite number within ±3.4028234663852886e+38
//
// Checks that need more than one flag or a file (a resolution that only a
// volume may leave at 0, a list of views) return an Error, which reads the
// same way.
package cliflag
