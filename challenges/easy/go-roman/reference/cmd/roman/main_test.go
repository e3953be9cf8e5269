package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"42", "xlii"}, &out, &errOut); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut.String())
	}
	if out.String() != "XLII\n42\n" {
		t.Errorf("stdout %q", out.String())
	}
}

func TestRunErrors(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"7", "nope", "8"}, &out, &errOut); code != 1 {
		t.Errorf("invalid argument: code %d", code)
	}
	if out.String() != "VII\n" || !strings.HasPrefix(errOut.String(), "error: ") {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
	if code := run(nil, &out, &errOut); code != 2 {
		t.Errorf("no argument: code %d", code)
	}
}
