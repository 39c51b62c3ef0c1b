package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/dpgl/dpgl/gpu"
)

func init() {
	commands["info"] = command{runInfo, "the GL context's renderer, driver and capabilities"}
	commands["quick"] = command{runQuick, "device info and a short copy-bandwidth table"}
}

func runInfo(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.Usage = usageFor(fs, "info", "Prints the headless GL context's renderer, driver and the capabilities kernels choose their paths by.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	defer c.Delete()
	printInfo(w, c)
	return nil
}

func printInfo(w io.Writer, c *gpu.Context) {
	cp := c.Caps()
	fmt.Fprintf(w, "renderer   %s (%s)\n", cp.Renderer, cp.Vendor)
	fmt.Fprintf(w, "driver     OpenGL %s, GLSL %s, via %s\n", cp.Version, cp.GLSLVersion, cp.Platform)
	sg := "none (shared-memory paths)"
	if cp.Subgroup {
		sg = fmt.Sprintf("size %d, features 0x%x", cp.SubgroupSize, cp.SubgroupFeatures)
	}
	fmt.Fprintf(w, "subgroups  %s\n", sg)
	fmt.Fprintf(w, "atomics    64-bit: %v\n", cp.Atomic64)
	fmt.Fprintf(w, "limits     %d groups per dimension, %d invocations per group, %d KiB shared memory, %d MiB per storage block\n",
		cp.MaxWorkGroupCount[0], cp.MaxWorkGroupInvocations, cp.MaxSharedMemory>>10, cp.MaxSSBOSize>>20)
}

func runQuick(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("quick", flag.ContinueOnError)
	fs.Usage = usageFor(fs, "quick", "Prints the device and a short copy-bandwidth table.")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c, err := gpu.NewHeadless()
	if err != nil {
		return err
	}
	printInfo(w, c)
	c.Delete()
	fmt.Fprintln(w)
	return runCopy([]string{"-sizes", "1M,16M,64M", "-reps", "3", "-warmup", "1"}, w)
}
