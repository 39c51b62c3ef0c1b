package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/dpgl/dpgl/internal/cliflag"
)

type command struct {
	run  func(args []string, w io.Writer) error
	help string
}

// commands holds the subcommands; each file registers its own in init.
var commands = map[string]command{}

// defaultCommand runs when bench is given no command.
const defaultCommand = "paper"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	name := defaultCommand
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	} else if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		usage(os.Stderr)
		return flag.ErrHelp
	}
	cmd, ok := commands[name]
	if !ok {
		usage(os.Stderr)
		return fmt.Errorf("bench: unknown command %q", name)
	}
	return cmd.run(args, w)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: bench [command] [flags]\n\nWith no command, bench runs %q.\n\nCommands:\n", defaultCommand)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].help)
	}
	fmt.Fprintf(w, "\nRun \"bench COMMAND -h\" for a command's flags. Set DPGL_GL_DEBUG=1 to check every GL call.\n")
}

// maxReps bounds -reps and -warmup: the times of every repetition are
// kept, and ten thousand runs of the smallest frame are minutes already.
const maxReps = 10000

// commonFlags are the flags every measuring command shares.
type commonFlags struct {
	reps, warmup int
}

func addCommonFlags(fs *flag.FlagSet, warmup, reps int) *commonFlags {
	cf := &commonFlags{}
	cliflag.Int(fs, &cf.reps, "reps", reps, "timed repetitions per measurement (the median is reported)", 1, maxReps)
	cliflag.Int(fs, &cf.warmup, "warmup", warmup, "untimed warm-up runs before the timed ones", 0, maxReps)
	return cf
}

// parseFlags parses a command's flags, which are all there is on its
// command line, and names the command in a refusal.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("bench %s: %w", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bench %s: unexpected argument %q (flags come after the command)", fs.Name(), fs.Arg(0))
	}
	return nil
}

func usageFor(fs *flag.FlagSet, name, what string) func() {
	return func() {
		fmt.Fprintf(fs.Output(), "usage: bench %s [flags]\n\n%s\n\nFlags:\n", name, what)
		fs.PrintDefaults()
	}
}
