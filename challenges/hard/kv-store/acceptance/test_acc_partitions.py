"""Hidden acceptance tests: quorums, aborts, read repair and convergence under partitions."""

import random

import pytest

from replikv import Cluster, QuorumError, Record, Version


@pytest.fixture
def trio():
    return Cluster(["a", "b", "c"], n=3, r=2, w=2, seed=0)


def test_minority_write_fails_majority_write_succeeds(trio):
    trio.partition([["a"], ["b", "c"]])
    with pytest.raises(QuorumError) as info:
        trio.put("k", "minority", via="a")
    assert (info.value.operation, info.value.key) == ("put", "k")
    assert (info.value.required, info.value.received) == (2, 1)
    assert trio.put("k", "majority", via="c") == Version(1, "c")
    assert trio.get("k", via="b") == "majority"


def test_failed_write_is_aborted_and_never_resurfaces(trio):
    trio.put("k", "base", via="a")
    trio.partition([["c"], ["a", "b"]])
    with pytest.raises(QuorumError):
        trio.put("k", "doomed", via="c")
    assert trio.node("c").local("k") == Record("base", Version(1, "a"))
    assert trio.put("k", "good", via="a") == Version(2, "a")
    trio.heal()
    assert trio.get("k", via="c") == "good"
    assert trio.node("c").local("k") == Record("good", Version(2, "a"))


def test_failed_first_write_leaves_no_key(trio):
    trio.partition([["b"], ["a", "c"]])
    with pytest.raises(QuorumError):
        trio.put("new", "x", via="b")
    assert trio.node("b").keys() == []
    trio.heal()
    assert trio.get("new", via="b") is None


def test_failed_write_still_advances_coordinator_clock(trio):
    trio.put("k", "v1", via="a")
    trio.partition([["a"], ["b", "c"]])
    with pytest.raises(QuorumError):
        trio.put("k", "nope", via="a")
    assert trio.put("k", "v2", via="b") == Version(2, "b")
    trio.heal()
    assert trio.put("k", "v3", via="a") == Version(3, "a")
    assert trio.get("k", via="c") == "v3"


def test_minority_read_fails_majority_read_succeeds(trio):
    trio.put("k", "v", via="a")
    trio.partition([["c"], ["a", "b"]])
    with pytest.raises(QuorumError) as info:
        trio.get("k", via="c")
    assert (info.value.operation, info.value.required, info.value.received) == ("get", 2, 1)
    assert trio.get("k", via="a") == "v"


def test_read_your_writes_through_overlapping_quorums(trio):
    trio.put("k", "old", via="a")
    trio.partition([["c"], ["a", "b"]])
    trio.put("k", "new", via="b")
    trio.partition([["b"], ["a", "c"]])
    assert trio.node("c").local("k").value == "old"
    assert trio.get("k", via="c") == "new"
    assert trio.node("c").local("k").value == "new"


def test_read_repair_fixes_stale_responders_after_heal(trio):
    trio.put("k", "v1", via="b")
    trio.partition([["a"], ["b", "c"]])
    version = trio.put("k", "v2", via="b")
    assert trio.node("a").local("k").value == "v1"
    trio.heal()
    assert trio.get("k", via="c") == "v2"
    assert [trio.node(i).local("k") for i in "abc"] == [Record("v2", version)] * 3


def test_read_repair_fills_missing_record():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=2)
    cluster.partition([["c"], ["a", "b"]])
    version = cluster.put("k", "v", via="a")
    assert cluster.node("c").local("k") is None
    cluster.heal()
    assert cluster.get("k", via="c") == "v"
    assert cluster.node("c").local("k") == Record("v", version)


def test_after_heal_every_node_reads_latest(trio):
    trio.partition([["a"], ["b", "c"]])
    trio.put("k", "x", via="b")
    trio.partition([["b"], ["a", "c"]])
    trio.put("k", "y", via="a")
    trio.partition([["c"], ["a", "b"]])
    trio.put("k", "z", via="a")
    trio.heal()
    assert [trio.get("k", via=i) for i in "abc"] == ["z", "z", "z"]


def test_concurrent_writes_converge_by_node_id_tie_break():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=1)
    cluster.partition([["a"], ["b", "c"]])
    assert cluster.put("k", "from-a", via="a") == Version(1, "a")
    assert cluster.put("k", "from-b", via="b") == Version(1, "b")
    cluster.heal()
    assert [cluster.get("k", via=i) for i in "abc"] == ["from-b"] * 3
    assert {cluster.node(i).local("k") for i in "abc"} == {Record("from-b", Version(1, "b"))}


def test_concurrent_writes_tie_break_independent_of_reader():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=1)
    cluster.partition([["c"], ["a", "b"]])
    cluster.put("k", "from-a", via="a")
    cluster.put("k", "from-c", via="c")
    cluster.heal()
    assert cluster.get("k", via="a") == "from-c"
    assert cluster.get("k", via="b") == "from-c"


def test_higher_timestamp_beats_higher_node_id():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=1)
    cluster.partition([["a"], ["b", "c"]])
    cluster.put("k", "a1", via="a")
    assert cluster.put("k", "a2", via="a") == Version(2, "a")
    assert cluster.put("k", "c1", via="c") == Version(1, "c")
    cluster.heal()
    assert [cluster.get("k", via=i) for i in "cba"] == ["a2"] * 3


def test_side_with_enough_replicas_accepts_writes():
    cluster = Cluster(["n1", "n2", "n3", "n4", "n5"], n=3, r=2, w=2)
    first, second, third = cluster.preference_list("k")
    others = [i for i in cluster.node_ids if i not in (first, second)]
    cluster.partition([[first, second], others])
    assert cluster.put("k", "ok", via=first).node_id == first
    with pytest.raises(QuorumError) as info:
        cluster.put("k", "no", via=third)
    assert info.value.received == 1
    outsider = next(i for i in others if i != third)
    with pytest.raises(QuorumError) as info:
        cluster.put("k", "no", via=outsider)
    assert info.value.received == 1
    cluster.heal()
    assert cluster.get("k", via=outsider) == "ok"


def test_isolated_outsider_gets_zero_acks():
    cluster = Cluster(["n1", "n2", "n3", "n4"], n=3, r=2, w=2)
    outsider = next(i for i in cluster.node_ids if i not in cluster.preference_list("k"))
    rest = [i for i in cluster.node_ids if i != outsider]
    cluster.partition([[outsider], rest])
    with pytest.raises(QuorumError) as info:
        cluster.put("k", "v", via=outsider)
    assert info.value.received == 0
    with pytest.raises(QuorumError) as info:
        cluster.get("k", via=outsider)
    assert info.value.received == 0


def _random_groups(rng, ids):
    shuffled = ids[:]
    rng.shuffle(shuffled)
    cut = rng.randint(1, len(ids) - 1)
    return [shuffled[:cut], shuffled[cut:]]


@pytest.mark.parametrize(
    "ids, n, r, w, seed",
    [
        (["a", "b", "c"], 3, 2, 2, 1),
        (["a", "b", "c"], 3, 2, 2, 2),
        (["n1", "n2", "n3", "n4", "n5"], 3, 2, 2, 3),
        (["n1", "n2", "n3", "n4", "n5"], 5, 3, 3, 4),
        (["n1", "n2", "n3", "n4", "n5"], 3, 1, 3, 5),
    ],
)
def test_no_acknowledged_write_is_lost(ids, n, r, w, seed):
    rng = random.Random(seed)
    cluster = Cluster(ids, n=n, r=r, w=w, seed=seed)
    cluster.network.configure(min_delay=1, max_delay=5)
    acked = {}
    failures = successes = 0
    for step in range(150):
        if step % 10 == 0:
            if rng.random() < 0.7:
                cluster.partition(_random_groups(rng, ids))
            else:
                cluster.heal()
        key = rng.choice(["p", "q", "r"])
        via = rng.choice(ids)
        try:
            if rng.random() < 0.6:
                cluster.put(key, f"{key}{step}", via=via)
                acked[key] = f"{key}{step}"
                successes += 1
            else:
                assert cluster.get(key, via=via) == acked.get(key)
        except QuorumError:
            failures += 1
    assert failures > 0 and successes > 0
    cluster.heal()
    for key in ("p", "q", "r"):
        for via in ids:
            assert cluster.get(key, via=via) == acked.get(key)
