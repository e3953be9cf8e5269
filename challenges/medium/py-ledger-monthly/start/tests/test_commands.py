from ledger.commands import load


def test_balance_is_a_command():
    commands = load()
    assert "balance" in commands and commands["balance"].HELP
