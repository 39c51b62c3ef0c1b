package main

import (
	"flag"
	"fmt"
	"io"
)

// warnf is every command's one way to say that a run went on past
// something the user may not expect (a calibration file it does not read,
// a set equal to another, a blank frame): one line on the command's
// output, starting "warning: ", so that it can be grepped for.
func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "warning: "+format+"\n", args...)
}

// flagGiven reports whether the flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// ignoredCalibration is the warning for a -calibration that -cost makes
// the command not read, or "" when it reads it or it was not given.
func ignoredCalibration(fs *flag.FlagSet, cost float64) string {
	if cost == 0 || !flagGiven(fs, "calibration") {
		return ""
	}
	return fmt.Sprintf("-calibration %s is not read: -cost %g sets the costs", fs.Lookup("calibration").Value, cost)
}
