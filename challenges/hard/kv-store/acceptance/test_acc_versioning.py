"""Hidden acceptance tests: versions, records, placement."""

import dataclasses
import zlib

import pytest

from replikv import Cluster, Record, Version, preference_list


def test_version_ordering_rule():
    assert Version(2, "a") > Version(1, "z")
    assert Version(5, "b") > Version(5, "a")
    assert Version(5, "a") < Version(5, "b")
    assert Version(3, "n") == Version(3, "n")
    assert max([Version(1, "c"), Version(2, "a"), Version(2, "b")]) == Version(2, "b")
    assert Version(7, "x").timestamp == 7 and Version(7, "x").node_id == "x"


def test_version_and_record_are_frozen():
    record = Record("v", Version(1, "a"))
    assert record == Record("v", Version(1, "a"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.value = "w"
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.version.timestamp = 9


def _expected(key, ids, n):
    ordered = sorted(ids)
    start = zlib.crc32(key.encode("utf-8")) % len(ordered)
    return [ordered[(start + i) % len(ordered)] for i in range(n)]


@pytest.mark.parametrize("key", ["alpha", "beta", "user:42", "", "ключ", "zzz"])
def test_preference_list_formula(key):
    ids = ["n4", "n1", "n5", "n3", "n2", "n6", "n0"]
    assert preference_list(key, ids, 3) == _expected(key, ids, 3)
    assert preference_list(key, ids, 7) == _expected(key, ids, 7)
    cluster = Cluster(ids, n=3, r=2, w=2)
    assert cluster.preference_list(key) == _expected(key, ids, 3)
    assert cluster.node_ids == sorted(ids)
