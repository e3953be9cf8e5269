package roman_test

import (
	"errors"
	"testing"

	"example.com/roman"
)

func TestAcceptanceFormatExamples(t *testing.T) {
	cases := map[int]string{1: "I", 3: "III", 4: "IV", 9: "IX", 58: "LVIII", 444: "CDXLIV",
		1994: "MCMXCIV", 2024: "MMXXIV", 3999: "MMMCMXCIX"}
	for n, want := range cases {
		got, err := roman.Format(n)
		if err != nil || got != want {
			t.Errorf("Format(%d) = %q, %v; want %q", n, got, err, want)
		}
	}
}

func TestAcceptanceFormatOutOfRange(t *testing.T) {
	for _, n := range []int{0, -5, 4000, 10000} {
		if _, err := roman.Format(n); !errors.Is(err, roman.ErrRange) {
			t.Errorf("Format(%d): error %v does not wrap ErrRange", n, err)
		}
	}
}

func TestAcceptanceRoundTrip(t *testing.T) {
	for n := 1; n <= 3999; n++ {
		s, err := roman.Format(n)
		if err != nil {
			t.Fatalf("Format(%d): %v", n, err)
		}
		back, err := roman.Parse(s)
		if err != nil || back != n {
			t.Fatalf("Parse(%q) = %d, %v; want %d", s, back, err, n)
		}
	}
}

func TestAcceptanceParseAnyCase(t *testing.T) {
	for s, want := range map[string]int{"mcmxciv": 1994, "Xiv": 14, "mmmcmxcix": 3999} {
		if got, err := roman.Parse(s); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
}

func TestAcceptanceParseRejectsNonCanonical(t *testing.T) {
	for _, s := range []string{"", "IIII", "VV", "LL", "DD", "IC", "XM", "IL", "MMMM", "VX", "IIX", "XIIII", "CCCC"} {
		if _, err := roman.Parse(s); !errors.Is(err, roman.ErrSyntax) {
			t.Errorf("Parse(%q): error %v does not wrap ErrSyntax", s, err)
		}
	}
}

func TestAcceptanceParseRejectsOtherText(t *testing.T) {
	for _, s := range []string{"ABC", "12", "X I", " X", "Ⅻ"} {
		if _, err := roman.Parse(s); !errors.Is(err, roman.ErrSyntax) {
			t.Errorf("Parse(%q): error %v does not wrap ErrSyntax", s, err)
		}
	}
}
