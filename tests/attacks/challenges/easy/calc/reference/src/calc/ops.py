"""The operations."""


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


def power(a, n):
    result = 1
    for _ in range(n):
        result *= a
    return result
