"""Hidden acceptance tests: cluster operations without partitions."""

import pytest

from replikv import Cluster, Network, Node, QuorumError, Record, ReplikvError, Version


@pytest.fixture
def trio():
    return Cluster(["a", "b", "c"], n=3, r=2, w=2, seed=0)


def _outsider(cluster, key):
    return next(i for i in cluster.node_ids if i not in cluster.preference_list(key))


def test_put_returns_first_version_and_reads_everywhere(trio):
    assert trio.put("k", "v", via="b") == Version(1, "b")
    assert [trio.get("k", via=i) for i in "abc"] == ["v", "v", "v"]


def test_missing_key_is_none(trio):
    assert trio.get("absent", via="a") is None
    trio.put("k", "v", via="a")
    assert trio.get("other", via="c") is None


def test_versions_follow_lamport_rule_across_coordinators(trio):
    assert trio.put("k", "1", via="a") == Version(1, "a")
    assert trio.put("k", "2", via="c") == Version(2, "c")
    assert trio.put("k", "3", via="b") == Version(3, "b")
    assert trio.put("k", "4", via="b") == Version(4, "b")
    assert trio.get("k", via="a") == "4"


def test_replica_clocks_learn_timestamps(trio):
    trio.put("k", "x", via="a")
    trio.put("k", "y", via="a")
    assert [trio.node(i).clock for i in "abc"] == [2, 2, 2]


def test_overwrites_return_latest(trio):
    for i in range(10):
        trio.put("k", f"v{i}", via="abc"[i % 3])
    assert {trio.get("k", via=i) for i in "abc"} == {"v9"}


def test_keys_are_independent(trio):
    trio.put("x", "1", via="a")
    trio.put("y", "2", via="b")
    trio.put("x", "3", via="c")
    assert trio.get("x", via="b") == "3"
    assert trio.get("y", via="c") == "2"
    assert trio.node("a").keys() == ["x", "y"]


def test_every_replica_stores_the_record_and_only_replicas():
    cluster = Cluster(["n1", "n2", "n3", "n4", "n5"], n=3, r=2, w=2)
    version = cluster.put("item", "payload", via="n1")
    replicas = cluster.preference_list("item")
    for node_id in cluster.node_ids:
        expected = Record("payload", version) if node_id in replicas else None
        assert cluster.node(node_id).local("item") == expected


def test_non_replica_coordinator():
    cluster = Cluster(["n1", "n2", "n3", "n4", "n5"], n=3, r=3, w=3)
    outsider = _outsider(cluster, "item")
    assert cluster.put("item", "v", via=outsider) == Version(1, outsider)
    assert cluster.node(outsider).keys() == []
    assert cluster.get("item", via=outsider) == "v"


def test_cluster_attributes():
    net = Network(seed=4)
    cluster = Cluster(["c", "a", "b"], n=2, r=1, w=2, network=net)
    assert cluster.network is net
    assert (cluster.n, cluster.r, cluster.w) == (2, 1, 2)
    assert cluster.node_ids == ["a", "b", "c"]
    node = cluster.node("b")
    assert isinstance(node, Node) and node.node_id == "b" and node.clock == 0
    assert isinstance(Cluster(["a"], n=1, r=1, w=1).network, Network)
    with pytest.raises(ValueError):
        cluster.node("zz")


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ([[]], {"n": 1, "r": 1, "w": 1}),
        ([["a", "b", "a"]], {}),
        ([["a", "b", ""]], {}),
        ([["a", "b", 3]], {}),
        ([["a", "b"]], {"n": 3}),
        ([["a", "b", "c"]], {"n": 0}),
        ([["a", "b", "c"]], {"r": 0}),
        ([["a", "b", "c"]], {"w": 4}),
        ([["a", "b", "c", "d"]], {"n": 2, "r": 3}),
    ],
)
def test_invalid_cluster_configuration(args, kwargs):
    with pytest.raises(ValueError):
        Cluster(*args, **kwargs)


def test_invalid_requests(trio):
    with pytest.raises(ValueError):
        trio.put("k", "v", via="d")
    with pytest.raises(ValueError):
        trio.get("k", via="d")
    with pytest.raises(TypeError):
        trio.put(5, "v", via="a")
    with pytest.raises(TypeError):
        trio.put("k", None, via="a")
    with pytest.raises(TypeError):
        trio.get(None, via="a")


def test_quorum_error_shape():
    err = QuorumError("get", "k", 2, 1)
    assert isinstance(err, ReplikvError) and isinstance(err, Exception)
    assert (err.operation, err.key, err.required, err.received) == ("get", "k", 2, 1)


def test_random_delays_do_not_change_results(trio):
    trio.network.configure(min_delay=1, max_delay=25)
    for i in range(15):
        trio.put(f"k{i % 4}", str(i), via="abc"[i % 3])
    assert [trio.get(f"k{j}", via="b") for j in range(4)] == ["12", "13", "14", "11"]
    assert trio.network.pending == 0


def test_local_replica_needs_no_network():
    cluster = Cluster(["a", "b", "c"], n=3, r=1, w=1)
    cluster.network.configure(drop_rate=1.0)
    assert cluster.put("k", "solo", via="a") == Version(1, "a")
    assert cluster.get("k", via="a") == "solo"
    assert cluster.node("b").local("k") is None


def test_total_loss_fails_quorum():
    cluster = Cluster(["a", "b", "c"], n=3, r=2, w=2)
    cluster.network.configure(drop_rate=1.0)
    with pytest.raises(QuorumError) as info:
        cluster.put("k", "v", via="a")
    assert (info.value.operation, info.value.key) == ("put", "k")
    assert (info.value.required, info.value.received) == (2, 1)
    assert cluster.node("a").local("k") is None
    with pytest.raises(QuorumError) as info:
        cluster.get("k", via="b")
    assert (info.value.operation, info.value.required, info.value.received) == ("get", 2, 1)


def test_lossy_runs_are_reproducible():
    def run(seed):
        cluster = Cluster(["a", "b", "c", "d"], n=3, r=2, w=2, seed=seed)
        cluster.network.configure(drop_rate=0.3, min_delay=1, max_delay=4)
        outcome = []
        for i in range(40):
            try:
                if i % 3:
                    outcome.append(cluster.put(f"k{i % 5}", str(i), via="abcd"[i % 4]))
                else:
                    outcome.append(cluster.get(f"k{i % 5}", via="abcd"[i % 4]))
            except QuorumError as err:
                outcome.append((err.operation, err.received))
        return outcome

    first = run(21)
    assert first == run(21)
    assert any(isinstance(x, tuple) for x in first)
    assert any(isinstance(x, Version) for x in first)
