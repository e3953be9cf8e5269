// Package calc does arithmetic.
package calc

import "errors"

// ErrDivZero is returned by Div for a zero divisor.
var ErrDivZero = errors.New("division by zero")

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts.
func Sub(a, b int) int { return a - b }

// Mul multiplies.
func Mul(a, b int) int { return a * b }

// Div divides, truncating.
func Div(a, b int) (int, error) {
	if b == 0 {
		return 0, ErrDivZero
	}
	return a / b, nil
}

// Power raises a to n >= 0.
func Power(a, n int) int {
	result := 1
	for i := 0; i < n; i++ {
		result *= a
	}
	return result
}
