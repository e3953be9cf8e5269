import pytest

from ledger import format_cents, parse_amount


@pytest.mark.parametrize(
    ("text", "cents"),
    [("0", 0), ("7", 700), ("10.5", 1050), ("10.05", 1005), ("1234.99", 123499)],
)
def test_parse_amount(text, cents):
    assert parse_amount(text) == cents


@pytest.mark.parametrize("text", ["", "-1", "1.234", "abc", "1.", ".5", "1,00"])
def test_parse_amount_rejects(text):
    with pytest.raises(ValueError):
        parse_amount(text)


@pytest.mark.parametrize(
    ("cents", "text"), [(0, "0.00"), (5, "0.05"), (-5, "-0.05"), (123456, "1234.56"), (-100, "-1.00")]
)
def test_format_cents(cents, text):
    assert format_cents(cents) == text
