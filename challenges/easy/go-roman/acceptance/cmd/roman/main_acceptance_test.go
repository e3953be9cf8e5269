package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestAcceptanceRunConverts(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"1994", "mcmxciv", "9", "IX"}, &out, &errOut)
	if code != 0 || out.String() != "MCMXCIV\n1994\nIX\n9\n" || errOut.Len() != 0 {
		t.Errorf("code %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}

func TestAcceptanceRunStopsAtFirstError(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"5", "4000", "6"}, &out, &errOut)
	if code != 1 || out.String() != "V\n" || !strings.HasPrefix(errOut.String(), "error: ") {
		t.Errorf("code %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}

func TestAcceptanceRunInvalidNumeral(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"IIII"}, &out, &errOut); code != 1 || out.Len() != 0 {
		t.Errorf("code %d stdout %q", code, out.String())
	}
}

func TestAcceptanceRunUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{}, &out, &errOut)
	if code != 2 || strings.TrimSpace(errOut.String()) != "usage: roman ARG..." || out.Len() != 0 {
		t.Errorf("code %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}
