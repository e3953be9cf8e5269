from replikv import Record, Version
from replikv.versioning import latest, newer


def test_timestamp_dominates_node_id():
    assert Version(3, "a") > Version(2, "z")


def test_node_id_breaks_ties():
    assert Version(4, "b") > Version(4, "a")
    assert Version(4, "a") == Version(4, "a")


def test_newer_handles_missing_records():
    record = Record("v", Version(1, "a"))
    assert newer(record, None)
    assert not newer(None, record)
    assert not newer(record, record)


def test_latest_picks_newest_record():
    old = Record("old", Version(1, "z"))
    new = Record("new", Version(2, "a"))
    assert latest([None, old, new, None]) == new
    assert latest([None, None]) is None
    assert latest([]) is None
