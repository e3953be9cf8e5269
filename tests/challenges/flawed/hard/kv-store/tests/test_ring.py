import zlib

from replikv import preference_list


def test_preference_list_follows_crc32_over_sorted_ids():
    ids = ["e", "c", "a", "d", "b"]
    start = zlib.crc32(b"user:1") % 5
    expected = [sorted(ids)[(start + i) % 5] for i in range(3)]
    assert preference_list("user:1", ids, 3) == expected


def test_preference_list_wraps_and_is_distinct():
    for key in ("a", "b", "c", "d"):
        replicas = preference_list(key, ["x", "y", "z"], 3)
        assert sorted(replicas) == ["x", "y", "z"]
