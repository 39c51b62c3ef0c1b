package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/dpgl/dpgl/gpu/gputest"
)

func TestQuickPrintsBandwidthTable(t *testing.T) {
	gputest.Context(t)
	var out bytes.Buffer
	if err := run([]string{"quick"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"renderer", "copy bandwidth on", "GB/s", "1 MiB", "16 MiB", "64 MiB"} {
		if !strings.Contains(s, want) {
			t.Fatalf("output lacks %q:\n%s", want, s)
		}
	}
	row := regexp.MustCompile(`(?m)^\s+64 MiB\s+wg\d+ x\d+\s+[\d.]+ [mu]?s\s+([\d.]+)`)
	if m := row.FindStringSubmatch(s); m == nil || m[1] == "0.0" {
		t.Fatalf("no plausible 64 MiB row:\n%s", s)
	}
}

func TestBadArguments(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"nonsense"}, &out); err == nil || !strings.Contains(err.Error(), `unknown command "nonsense"`) {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := parseSizes("64M,x"); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Fatalf("bad size: %v", err)
	}
	if s, err := parseSizes("512K,2M,1G"); err != nil || s[0] != 512<<10 || s[1] != 2<<20 || s[2] != 1<<30 {
		t.Fatalf("parseSizes: %v %v", s, err)
	}
}
