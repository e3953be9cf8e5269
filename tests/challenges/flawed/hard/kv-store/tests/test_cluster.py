import pytest

from replikv import Cluster, Network, QuorumError, ReplikvError, Version


def test_put_then_get_from_any_node(cluster):
    assert cluster.put("k", "v", via="n1") == Version(1, "n1")
    for node_id in cluster.node_ids:
        assert cluster.get("k", via=node_id) == "v"


def test_missing_key_reads_none(cluster):
    assert cluster.get("nothing", via="n2") is None


def test_versions_grow_across_coordinators(cluster):
    cluster.put("k", "one", via="n3")
    assert cluster.put("k", "two", via="n1") == Version(2, "n1")
    assert cluster.get("k", via="n2") == "two"


def test_write_reaches_every_replica(cluster):
    cluster.put("k", "v", via="n2")
    for node_id in cluster.preference_list("k"):
        record = cluster.node(node_id).local("k")
        assert record is not None and record.value == "v"
        assert cluster.node(node_id).keys() == ["k"]


def test_non_replica_coordinator():
    cluster = Cluster(["a", "b", "c", "d", "e"], n=3, r=2, w=2)
    outsider = next(i for i in cluster.node_ids if i not in cluster.preference_list("key"))
    cluster.put("key", "v", via=outsider)
    assert cluster.node(outsider).local("key") is None
    assert cluster.get("key", via=outsider) == "v"


def test_minority_write_fails_and_is_aborted(cluster):
    cluster.put("k", "old", via="n1")
    cluster.partition([["n3"], ["n1", "n2"]])
    with pytest.raises(QuorumError) as info:
        cluster.put("k", "lost", via="n3")
    assert (info.value.operation, info.value.required, info.value.received) == ("put", 2, 1)
    assert isinstance(info.value, ReplikvError)
    assert cluster.node("n3").local("k").value == "old"
    cluster.heal()
    assert cluster.get("k", via="n3") == "old"


def test_abort_of_first_write_removes_key(cluster):
    cluster.partition([["n1"], ["n2", "n3"]])
    with pytest.raises(QuorumError):
        cluster.put("fresh", "x", via="n1")
    assert cluster.node("n1").keys() == []


def test_minority_read_fails(cluster):
    cluster.partition([["n1"], ["n2", "n3"]])
    with pytest.raises(QuorumError) as info:
        cluster.get("k", via="n1")
    assert info.value.operation == "get" and info.value.received == 1


def test_heal_converges_and_read_repairs(cluster):
    cluster.put("k", "v1", via="n1")
    cluster.partition([["n1"], ["n2", "n3"]])
    cluster.put("k", "v2", via="n2")
    assert cluster.node("n1").local("k").value == "v1"
    cluster.heal()
    assert cluster.get("k", via="n1") == "v2"
    assert cluster.node("n1").local("k").value == "v2"


def test_concurrent_writes_resolved_by_node_id():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=1)
    cluster.partition([["a"], ["b", "c"]])
    assert cluster.put("k", "from-a", via="a") == Version(1, "a")
    assert cluster.put("k", "from-b", via="b") == Version(1, "b")
    cluster.heal()
    assert {cluster.get("k", via=i) for i in "abc"} == {"from-b"}


def test_lost_messages_are_deterministic():
    def run(seed: int) -> list[str]:
        cluster = Cluster(["a", "b", "c"], seed=seed)
        cluster.network.configure(drop_rate=0.4, min_delay=1, max_delay=3)
        results = []
        for i in range(20):
            try:
                cluster.put(f"k{i % 3}", str(i), via="abc"[i % 3])
                results.append("ok")
            except QuorumError:
                results.append("fail")
        return results

    assert run(5) == run(5)
    assert "fail" in run(5)


def test_shared_network_is_used():
    net = Network(seed=2)
    cluster = Cluster(["a", "b", "c"], network=net)
    cluster.put("k", "v", via="a")
    assert cluster.network is net and net.delivered > 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"node_ids": []},
        {"node_ids": ["a", "a", "b"]},
        {"node_ids": ["a", ""]},
        {"node_ids": ["a", "b"], "n": 3},
        {"node_ids": ["a", "b", "c"], "r": 4},
        {"node_ids": ["a", "b", "c"], "w": 0},
    ],
)
def test_invalid_configuration(kwargs):
    with pytest.raises(ValueError):
        Cluster(**kwargs)


def test_invalid_requests(cluster):
    with pytest.raises(ValueError):
        cluster.put("k", "v", via="ghost")
    with pytest.raises(ValueError):
        cluster.get("k", via=None)
    with pytest.raises(TypeError):
        cluster.put(1, "v", via="n1")
    with pytest.raises(TypeError):
        cluster.put("k", 2, via="n1")
    with pytest.raises(TypeError):
        cluster.get(b"k", via="n1")
