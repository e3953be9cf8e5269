package roman

import (
	"errors"
	"testing"
)

func TestFormat(t *testing.T) {
	cases := map[int]string{1: "I", 4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD",
		1994: "MCMXCIV", 3999: "MMMCMXCIX"}
	for n, want := range cases {
		if got, err := Format(n); err != nil || got != want {
			t.Errorf("Format(%d) = %q, %v; want %q", n, got, err, want)
		}
	}
}

func TestFormatRange(t *testing.T) {
	for _, n := range []int{0, -1, 4000} {
		if _, err := Format(n); !errors.Is(err, ErrRange) {
			t.Errorf("Format(%d) error = %v, want ErrRange", n, err)
		}
	}
}

func TestParse(t *testing.T) {
	for n := 1; n <= 3999; n++ {
		s, _ := Format(n)
		if got, err := Parse(s); err != nil || got != n {
			t.Fatalf("Parse(%q) = %d, %v; want %d", s, got, err, n)
		}
	}
	if got, err := Parse("mcmxciv"); err != nil || got != 1994 {
		t.Errorf("lower case: %d, %v", got, err)
	}
}

func TestParseSyntax(t *testing.T) {
	for _, s := range []string{"", "IIII", "VV", "IC", "XM", "MMMM", "ABC", "IIV"} {
		if _, err := Parse(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error = %v, want ErrSyntax", s, err)
		}
	}
}
