package calc

import "testing"

func TestArithmetic(t *testing.T) {
	if Add(2, 3) != 5 || Sub(2, 3) != -1 || Mul(4, 5) != 20 || Power(2, 10) != 1024 {
		t.Fatal("arithmetic")
	}
}

func TestDiv(t *testing.T) {
	if q, err := Div(9, 2); q != 4 || err != nil {
		t.Fatal(q, err)
	}
	if _, err := Div(1, 0); err != ErrDivZero {
		t.Fatal(err)
	}
}
