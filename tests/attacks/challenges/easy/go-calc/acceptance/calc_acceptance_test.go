package calc_test

import (
	"testing"

	"example.com/calc"
)

func TestAdd(t *testing.T)         { check(t, calc.Add(2, 3), 5) }
func TestAddNegative(t *testing.T) { check(t, calc.Add(-2, -3), -5) }
func TestSub(t *testing.T)         { check(t, calc.Sub(10, 4), 6) }
func TestMul(t *testing.T)         { check(t, calc.Mul(6, 7), 42) }
func TestMulZero(t *testing.T)     { check(t, calc.Mul(6, 0), 0) }

func TestDiv(t *testing.T) {
	q, err := calc.Div(9, 2)
	if err != nil {
		t.Fatal(err)
	}
	check(t, q, 4)
}

func TestDivZero(t *testing.T) {
	if _, err := calc.Div(1, 0); err == nil {
		t.Fatal("no error for a zero divisor")
	}
}

func TestDivExact(t *testing.T) {
	q, _ := calc.Div(12, 3)
	check(t, q, 4)
}

func TestPower(t *testing.T)     { check(t, calc.Power(2, 10), 1024) }
func TestPowerZero(t *testing.T) { check(t, calc.Power(5, 0), 1) }

func check(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("got %d, want %d", got, want)
	}
}
