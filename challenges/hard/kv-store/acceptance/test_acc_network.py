"""Hidden acceptance tests: the network simulator."""

import pytest

from replikv import Message, Network


def _boxes(net, *names):
    boxes = {name: [] for name in names}
    for name in names:
        net.register(name, boxes[name].append)
    return boxes


def test_delivery_sets_message_fields_and_clock():
    net = Network(seed=0, min_delay=3, max_delay=3)
    boxes = _boxes(net, "a", "b")
    assert net.now == 0
    net.send("a", "b", "greet", {"x": 42})
    assert net.pending == 1
    assert net.run_until_idle() == 1
    (msg,) = boxes["b"]
    assert isinstance(msg, Message)
    assert (msg.src, msg.dst, msg.kind, msg.payload["x"]) == ("a", "b", "greet", 42)
    assert (msg.sent_at, msg.deliver_at) == (0, 3)
    assert net.now == 3 and net.pending == 0 and net.delivered == 1 and net.dropped == 0


def test_payload_defaults_to_empty_mapping():
    net = Network()
    boxes = _boxes(net, "a", "b")
    net.send("a", "b", "bare")
    net.run_until_idle()
    assert dict(boxes["b"][0].payload) == {}


def test_equal_delays_deliver_in_send_order():
    net = Network(seed=9, min_delay=2, max_delay=2)
    boxes = _boxes(net, "a", "b")
    for i in range(10):
        net.send("a", "b", "m", {"i": i})
    net.run_until_idle()
    assert [m.payload["i"] for m in boxes["b"]] == list(range(10))


def test_earliest_delivery_time_first():
    net = Network(min_delay=10, max_delay=10)
    boxes = _boxes(net, "a", "b")
    net.send("a", "b", "slow")
    net.configure(min_delay=1, max_delay=1)
    net.send("a", "b", "fast")
    net.configure(min_delay=5, max_delay=5)
    net.send("a", "b", "middle")
    net.run_until_idle()
    assert [m.kind for m in boxes["b"]] == ["fast", "middle", "slow"]
    assert net.now == 10


def test_step_one_message_at_a_time():
    net = Network()
    boxes = _boxes(net, "a", "b")
    assert net.step() is False
    net.send("a", "b", "one")
    net.send("a", "b", "two")
    assert net.step() is True
    assert [m.kind for m in boxes["b"]] == ["one"] and net.pending == 1
    assert net.step() is True
    assert net.step() is False
    assert net.delivered == 2


def test_run_until_idle_counts_only_this_call():
    net = Network()
    _boxes(net, "a", "b")
    net.send("a", "b", "m")
    net.send("a", "b", "m")
    assert net.run_until_idle() == 2
    assert net.run_until_idle() == 0
    net.send("b", "a", "m")
    assert net.run_until_idle() == 1
    assert net.delivered == 3


def test_handlers_may_send_and_clock_accumulates():
    net = Network(min_delay=2, max_delay=2)
    seen = []
    net.register("a", lambda m: seen.append((m.kind, m.sent_at, m.deliver_at)))
    net.register("b", lambda m: net.send("b", "c", "fwd"))
    net.register("c", lambda m: net.send("c", "a", "back"))
    net.send("a", "b", "start")
    assert net.run_until_idle() == 3
    assert seen == [("back", 4, 6)]
    assert net.now == 6


def test_zero_delay_is_allowed():
    net = Network(min_delay=0, max_delay=0)
    boxes = _boxes(net, "a", "b")
    net.send("a", "b", "now")
    net.run_until_idle()
    assert boxes["b"][0].deliver_at == boxes["b"][0].sent_at == 0


def test_random_delays_stay_in_range_and_are_seeded():
    def run(seed):
        net = Network(seed=seed, min_delay=1, max_delay=6)
        boxes = _boxes(net, "a", "b")
        for i in range(60):
            net.send("a", "b", "m", {"i": i})
        net.run_until_idle()
        return [(m.payload["i"], m.deliver_at - m.sent_at) for m in boxes["b"]]

    first = run(11)
    assert first == run(11)
    assert len(first) == 60
    delays = {d for _, d in first}
    assert delays <= set(range(1, 7)) and len(delays) > 1
    assert [i for i, _ in first] != list(range(60))


def test_drop_rate_one_loses_everything():
    net = Network(drop_rate=1.0)
    boxes = _boxes(net, "a", "b")
    for _ in range(7):
        net.send("a", "b", "m")
    assert net.run_until_idle() == 0
    assert boxes["b"] == [] and net.dropped == 7 and net.delivered == 0


def test_seeded_drops_are_partial_and_reproducible():
    def survivors(seed):
        net = Network(seed=seed, drop_rate=0.5)
        boxes = _boxes(net, "a", "b")
        for i in range(200):
            net.send("a", "b", "m", {"i": i})
        net.run_until_idle()
        assert net.dropped + net.delivered == 200
        return [m.payload["i"] for m in boxes["b"]]

    one = survivors(1)
    assert one == survivors(1)
    assert 40 < len(one) < 160
    assert one != survivors(2)


def test_configure_drop_rate_later():
    net = Network()
    boxes = _boxes(net, "a", "b")
    net.send("a", "b", "kept")
    net.configure(drop_rate=1.0)
    net.send("a", "b", "lost")
    net.run_until_idle()
    assert [m.kind for m in boxes["b"]] == ["kept"]


def test_partition_reachability_rules():
    net = Network()
    _boxes(net, "a", "b", "c", "d", "e")
    net.partition([["a", "b"], ["c", "d"]])
    assert net.can_reach("a", "b") and net.can_reach("d", "c")
    assert not net.can_reach("a", "c") and not net.can_reach("c", "b")
    assert not net.can_reach("e", "a") and not net.can_reach("a", "e")
    assert net.can_reach("e", "e")
    net.partition([["a", "b"]])
    assert not net.can_reach("c", "d") and not net.can_reach("d", "e")
    assert net.can_reach("b", "a")
    net.heal()
    assert all(net.can_reach(x, y) for x in "abcde" for y in "abcde")


def test_partition_blocks_messages_across_groups_only():
    net = Network()
    boxes = _boxes(net, "a", "b", "c")
    net.partition([["a", "b"], ["c"]])
    net.send("a", "b", "inside")
    net.send("a", "c", "across")
    net.send("c", "a", "across")
    assert net.run_until_idle() == 1
    assert len(boxes["b"]) == 1 and boxes["c"] == [] and boxes["a"] == []
    assert net.dropped == 2


def test_new_partition_replaces_old():
    net = Network()
    _boxes(net, "a", "b", "c")
    net.partition([["a"], ["b", "c"]])
    net.partition([["a", "b"], ["c"]])
    assert net.can_reach("a", "b") and not net.can_reach("b", "c")


def test_message_sent_into_partition_is_lost_even_if_healed():
    net = Network()
    boxes = _boxes(net, "a", "b")
    net.partition([["a"], ["b"]])
    net.send("a", "b", "m")
    net.heal()
    net.run_until_idle()
    assert boxes["b"] == [] and net.dropped == 1


def test_partition_during_flight_loses_message_at_delivery():
    net = Network()
    boxes = _boxes(net, "a", "b")
    net.send("a", "b", "m")
    net.partition([["a"], ["b"]])
    assert net.step() is True
    assert boxes["b"] == [] and net.dropped == 1 and net.delivered == 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"drop_rate": -0.1},
        {"drop_rate": 1.01},
        {"min_delay": -1, "max_delay": 1},
        {"min_delay": 4, "max_delay": 3},
    ],
)
def test_invalid_fault_settings(kwargs):
    with pytest.raises(ValueError):
        Network(**kwargs)
    net = Network()
    with pytest.raises(ValueError):
        net.configure(**kwargs)


def test_registration_and_addressing_errors():
    net = Network()
    _boxes(net, "a", "b")
    with pytest.raises(ValueError):
        net.register("a", lambda m: None)
    with pytest.raises(ValueError):
        net.send("a", "nobody", "m")
    with pytest.raises(ValueError):
        net.send("nobody", "a", "m")
    with pytest.raises(ValueError):
        net.partition([["a", "b"], ["b"]])
    with pytest.raises(ValueError):
        net.partition([["a"], ["ghost"]])


def test_run_until_idle_max_steps():
    net = Network()
    net.register("a", lambda m: net.send("a", "b", "m"))
    net.register("b", lambda m: net.send("b", "a", "m"))
    net.send("a", "b", "m")
    with pytest.raises(RuntimeError):
        net.run_until_idle(max_steps=50)
