// Package roman converts between integers and canonical Roman numerals (1 to 3999).
package roman

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRange is wrapped by errors for numbers outside 1..3999.
var ErrRange = errors.New("number out of range 1..3999")

// ErrSyntax is wrapped by errors for text that is not a canonical Roman numeral.
var ErrSyntax = errors.New("not a canonical Roman numeral")

type symbol struct {
	value int
	text  string
}

var symbols = []symbol{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// Format returns the canonical numeral of n.
func Format(n int) (string, error) {
	if n < 1 || n > 3999 {
		return "", fmt.Errorf("%d: %w", n, ErrRange)
	}
	var b strings.Builder
	for _, s := range symbols {
		for n >= s.value {
			b.WriteString(s.text)
			n -= s.value
		}
	}
	return b.String(), nil
}

// Parse returns the value of a canonical numeral (any letter case).
func Parse(s string) (int, error) {
	upper := strings.ToUpper(s)
	total, rest := 0, upper
	for _, sym := range symbols {
		for strings.HasPrefix(rest, sym.text) {
			total += sym.value
			rest = rest[len(sym.text):]
		}
	}
	if rest != "" || total == 0 || total > 3999 {
		return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	if canonical, _ := Format(total); canonical != upper {
		return 0, fmt.Errorf("%q: %w", s, ErrSyntax)
	}
	return total, nil
}
