import pytest

from replikv import Message, Network


def _sink(network: Network, *names: str) -> dict[str, list[Message]]:
    boxes: dict[str, list[Message]] = {name: [] for name in names}
    for name in names:
        network.register(name, boxes[name].append)
    return boxes


def test_message_is_delivered_after_its_delay():
    net = Network(seed=1, min_delay=4, max_delay=4)
    boxes = _sink(net, "x", "y")
    net.send("x", "y", "hello", {"n": 1})
    assert net.pending == 1
    assert net.run_until_idle() == 1
    (msg,) = boxes["y"]
    assert (msg.src, msg.kind, msg.payload["n"], msg.sent_at, msg.deliver_at) == ("x", "hello", 1, 0, 4)
    assert net.now == 4 and net.delivered == 1 and net.pending == 0


def test_step_processes_one_message_at_a_time():
    net = Network()
    boxes = _sink(net, "x", "y")
    net.send("x", "y", "one")
    net.send("x", "y", "two")
    assert net.step() is True
    assert [m.kind for m in boxes["y"]] == ["one"]
    assert net.step() is True
    assert net.step() is False


def test_earlier_deadline_wins_over_send_order():
    net = Network(min_delay=10, max_delay=10)
    boxes = _sink(net, "x", "y")
    net.send("x", "y", "slow")
    net.configure(min_delay=2, max_delay=2)
    net.send("x", "y", "fast")
    net.run_until_idle()
    assert [m.kind for m in boxes["y"]] == ["fast", "slow"]


def test_handlers_can_reply():
    net = Network()
    log: list[str] = []
    net.register("ping", lambda m: log.append(m.kind))
    net.register("pong", lambda m: net.send("pong", m.src, "reply"))
    net.send("ping", "pong", "request")
    assert net.run_until_idle() == 2
    assert log == ["reply"]


def test_full_drop_rate_loses_everything():
    net = Network(drop_rate=1.0)
    boxes = _sink(net, "x", "y")
    for _ in range(5):
        net.send("x", "y", "m")
    assert net.run_until_idle() == 0
    assert boxes["y"] == [] and net.dropped == 5


def test_same_seed_same_losses():
    def trace(seed: int) -> list[int]:
        net = Network(seed=seed, drop_rate=0.5, min_delay=1, max_delay=5)
        boxes = _sink(net, "x", "y")
        for i in range(50):
            net.send("x", "y", "m", {"i": i})
        net.run_until_idle()
        return [m.payload["i"] for m in boxes["y"]]

    assert trace(3) == trace(3)
    assert 0 < len(trace(3)) < 50


def test_partition_and_heal():
    net = Network()
    boxes = _sink(net, "a", "b", "c", "d")
    net.partition([["a", "b"], ["c"]])
    assert net.can_reach("a", "b") and not net.can_reach("a", "c")
    assert not net.can_reach("d", "a") and net.can_reach("d", "d")
    net.send("a", "b", "in")
    net.send("a", "c", "out")
    net.run_until_idle()
    assert len(boxes["b"]) == 1 and boxes["c"] == []
    net.heal()
    net.send("a", "c", "out")
    net.run_until_idle()
    assert len(boxes["c"]) == 1


def test_partition_created_while_in_flight_loses_message():
    net = Network()
    boxes = _sink(net, "a", "b")
    net.send("a", "b", "m")
    net.partition([["a"], ["b"]])
    assert net.step() is True
    assert boxes["b"] == [] and net.dropped == 1


def test_validation_errors():
    with pytest.raises(ValueError):
        Network(drop_rate=1.5)
    with pytest.raises(ValueError):
        Network(min_delay=3, max_delay=2)
    net = Network()
    _sink(net, "a", "b")
    with pytest.raises(ValueError):
        net.configure(min_delay=-1)
    with pytest.raises(ValueError):
        net.register("a", print)
    with pytest.raises(ValueError):
        net.send("a", "zzz", "m")
    with pytest.raises(ValueError):
        net.partition([["a"], ["a", "b"]])
    with pytest.raises(ValueError):
        net.partition([["ghost"]])


def test_run_until_idle_gives_up_on_endless_traffic():
    net = Network()
    net.register("a", lambda m: net.send("a", "b", "m"))
    net.register("b", lambda m: net.send("b", "a", "m"))
    net.send("a", "b", "m")
    with pytest.raises(RuntimeError):
        net.run_until_idle(max_steps=20)
