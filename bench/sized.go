package main

import (
	"flag"

	"github.com/dpgl/dpgl/gpu"
)

// sizedCommand is what bench's size-sweeping commands (scan, sort,
// primitives) share: -log2 and the common flags, the usage, a GL context
// and the sizes, every flag refused before any work. A new such command
// declares one and writes only what it measures at a size.
type sizedCommand struct {
	name string
	// about is the usage's description; sizesHelp -log2's.
	about, sizesHelp string
	// warmup and reps are -warmup's and -reps' defaults.
	warmup, reps int
	// defaults are the sizes without -log2, for the context's device.
	defaults func(*gpu.Context) []int
}

// sized is a sizedCommand's run: its context, sizes and common flags.
type sized struct {
	c     *gpu.Context
	sizes []int
	*commonFlags
}

// start parses args; own, when not nil, adds the command's own flags and
// returns the check of their values, run after the parse and before the
// context is made. The caller deletes the context.
func (s sizedCommand) start(args []string, own func(fs *flag.FlagSet) (check func() error)) (*sized, error) {
	fs := flag.NewFlagSet(s.name, flag.ContinueOnError)
	log2 := fs.String("log2", "", s.sizesHelp)
	cf := addCommonFlags(fs, s.warmup, s.reps)
	var check func() error
	if own != nil {
		check = own(fs)
	}
	fs.Usage = usageFor(fs, s.name, s.about)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	sizes, err := log2Flag(s.name, *log2)
	if err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return nil, err
	}
	if sizes, err = log2Sizes(s.name, *log2, sizes, c, s.defaults); err != nil {
		c.Delete()
		return nil, err
	}
	return &sized{c: c, sizes: sizes, commonFlags: cf}, nil
}
