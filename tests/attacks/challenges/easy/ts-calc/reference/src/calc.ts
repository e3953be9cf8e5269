/** Arithmetic. */

export function add(a: number, b: number): number {
  return a + b;
}

export function sub(a: number, b: number): number {
  return a - b;
}

export function mul(a: number, b: number): number {
  return a * b;
}

export function div(a: number, b: number): number {
  if (b === 0) {
    throw new RangeError("division by zero");
  }
  return a / b;
}

export function power(a: number, n: number): number {
  let result = 1;
  for (let i = 0; i < n; i++) {
    result *= a;
  }
  return result;
}
