"""A stream the server hands over (app/live.py, app/deliverer.py): the broker's deliverer
writes its events and keepalives, ends it as an iterated stream would end, and sends the same
bytes an iterated stream sends.

The outlet here is a list (app/outlet.py's socket outlet has its own tests, and the real server
is in tests/test_server_limits.py). The deliverer is a thread; each test waits for what it
must see with a bound that only keeps a broken deliverer from hanging the run."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.deliverer import BUSY_S
from app.live import HELD, KEEPALIVE, OPENED, Broker, Stream, changed_event

LONG = 60.0  # a keepalive no test lives to see
BOUND_S = 30.0


class ListOutlet:
    """What the deliverer wrote, in order."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.busy = False
        self.closed = False
        self.closings = 0
        self.changed = threading.Condition()

    def send(self, data: bytes) -> None:
        with self.changed:
            self.sent.append(data)
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.closings += 1
            self.changed.notify_all()

    def until(self, seen: Callable[[ListOutlet], bool]) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: seen(self), BOUND_S), self.sent


def handed_over(broker: Broker, stream: Stream) -> tuple[list[bytes], ListOutlet]:
    """The stream opened as the server opens it, then handed over to a fresh outlet."""
    sent, goes_on = stream.opening()
    assert goes_on
    outlet = ListOutlet()
    stream.take_over(outlet)
    return sent, outlet


def test_a_handed_over_stream_gets_each_publish_from_the_deliverer() -> None:
    broker = Broker(keepalive=LONG)
    stream = broker.stream("t1", 3, draw=lambda v: f'<p data-version="{v}">x</p>')
    sent, outlet = handed_over(broker, stream)
    assert sent == [OPENED]
    broker.publish("t1", 4)
    outlet.until(lambda o: len(o.sent) == 1)
    broker.publish("t1", 5)
    outlet.until(lambda o: len(o.sent) == 2)
    assert outlet.sent == [changed_event(4, '<p data-version="4">x</p>'),
                           changed_event(5, '<p data-version="5">x</p>')]
    assert not outlet.closed


def test_a_handed_over_stream_sends_what_an_iterated_one_sends() -> None:
    """The same publishes, one stream of each kind: byte for byte the same, keepalives aside."""
    broker = Broker(keepalive=LONG)

    def draw(version: int) -> str:
        return HELD if version == 5 else f"<p>{version}</p>\r\n<p>’</p>"

    iterated = broker.stream("t1", 3, current_version=lambda: 4, draw=draw)
    handed = broker.stream("t1", 3, current_version=lambda: 4, draw=draw)
    opening, outlet = handed_over(broker, handed)
    assert [next(iterated), next(iterated)] == opening
    for version in (5, 6, 7):
        broker.publish("t1", version)
        heard = next(iterated)
        outlet.until(lambda o, n=version - 4: len(o.sent) == n)
        assert outlet.sent[-1] == heard
    iterated.close()


def test_a_publish_while_the_opening_was_on_its_way_is_delivered_at_the_hand_over() -> None:
    broker = Broker(keepalive=LONG)
    stream = broker.stream("t1", 3)
    sent, goes_on = stream.opening()
    broker.publish("t1", 4)  # before the server handed it over
    outlet = ListOutlet()
    stream.take_over(outlet)
    outlet.until(lambda o: o.sent == [changed_event(4)])


def test_a_quiet_handed_over_stream_gets_a_keepalive() -> None:
    broker = Broker(keepalive=0.05)
    _sent, outlet = handed_over(broker, broker.stream("t1", 0))
    outlet.until(lambda o: o.sent[:2] == [KEEPALIVE, KEEPALIVE])


def test_a_busy_outlet_gets_no_keepalive_but_still_its_events() -> None:
    """An outlet still writing to a slow reader is not quiet: a keepalive would tell nothing."""
    broker = Broker(keepalive=0.05)
    stream = broker.stream("t1", 0)
    _sent, outlet = handed_over(broker, stream)
    outlet.busy = True
    time.sleep(0.3)  # six keepalives' time, none of them sent
    assert outlet.sent == []
    broker.publish("t1", 1)
    outlet.until(lambda o: o.sent == [changed_event(1)])


def test_a_handed_over_stream_ends_when_its_listener_may_no_longer_see() -> None:
    broker = Broker(keepalive=LONG)
    stream = broker.stream("t1", 5, still_allowed=lambda version: version <= 6)
    _sent, outlet = handed_over(broker, stream)
    broker.publish("t1", 6)
    outlet.until(lambda o: len(o.sent) == 1)
    broker.publish("t1", 7)  # say, the seat's link was re-issued
    outlet.until(lambda o: o.closed)
    assert outlet.sent == [changed_event(6)] and outlet.closings == 1
    assert broker._channels == {}


def test_a_gone_connection_ends_its_stream_and_leaves_no_trace() -> None:
    broker = Broker(keepalive=0.05)
    _sent, outlet = handed_over(broker, broker.stream("t1", 0))
    outlet.closed = True  # a write failed: the reader went away
    outlet.until(lambda o: o.closings == 1)
    for _ in range(100):
        if not broker._channels:
            break
        time.sleep(0.01)
    assert broker._channels == {} and broker._deliverer._streams == set()
    for _ in range(300):  # and the deliverer, with no stream left, ends
        if broker._deliverer._thread is None:
            break
        time.sleep(0.01)
    assert broker._deliverer._thread is None


def test_a_draw_that_fails_ends_its_stream_and_no_other(
        capsys: object) -> None:
    """A bug drawing one screen is said in the server's log; that device's stream ends (it
    reconnects), and the deliverer goes on for every other stream."""
    broker = Broker(keepalive=LONG)

    def broken(version: int) -> str:
        raise RuntimeError("a bug")

    _s, failing = handed_over(broker, broker.stream("t1", 0, draw=broken))
    _s, working = handed_over(broker, broker.stream("t1", 0, draw=lambda v: f"<p>{v}</p>"))
    broker.publish("t1", 1)
    failing.until(lambda o: o.closed)
    working.until(lambda o: o.sent == [changed_event(1, "<p>1</p>")])
    broker.publish("t1", 2)
    working.until(lambda o: len(o.sent) == 2)
    assert failing.sent == [] and failing.closings == 1


def test_closing_a_handed_over_stream_is_the_deliverers_not_the_servers() -> None:
    """The server closes every response it served (WSGI's ``close``); once handed over, the
    stream goes on until the deliverer ends it."""
    broker = Broker(keepalive=LONG)
    stream = broker.stream("t1", 0)
    _sent, outlet = handed_over(broker, stream)
    stream.close()
    broker.publish("t1", 1)
    outlet.until(lambda o: o.sent == [changed_event(1)])
    assert set(broker._channels) == {"t1"}


class RecordedWake(threading.Event):
    """The deliverer's wake-up, with the longest it was told to sleep each time."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeps: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.sleeps.append(timeout)
        return super().wait(timeout)


def test_an_idle_deliverer_sleeps_until_the_first_keepalive_is_due() -> None:
    """No wake-up every second to look for work: at one table, an idle server's wake-ups were
    most of its CPU between taps (docs/PERFORMANCE-HISTORY.md). It sleeps until a keepalive is due,
    or a publish or a gone reader wakes it."""
    broker = Broker(keepalive=LONG)
    wake = broker._deliverer._wake = RecordedWake()
    _sent, outlet = handed_over(broker, broker.stream("t1", 0))
    broker.publish("t1", 1)
    outlet.until(lambda o: len(o.sent) == 1)
    for _ in range(300):  # back to sleep after the event
        if len(wake.sleeps) >= 2:
            break
        time.sleep(0.01)
    assert len(wake.sleeps) >= 2
    assert all(sleep is not None and sleep > LONG - BOUND_S for sleep in wake.sleeps)
    outlet.closed = True
    assert outlet.on_gone is not None
    outlet.on_gone()
    outlet.until(lambda o: o.closings == 1)


def test_a_gone_reader_ends_its_stream_at_once_not_at_the_next_keepalive() -> None:
    """The outlet says its reader went (app/outlet.py calls ``on_gone``): the stream ends
    and its connection's place is given back now, though no keepalive is due for a minute."""
    broker = Broker(keepalive=LONG)
    stream = broker.stream("t1", 0)
    _sent, outlet = handed_over(broker, stream)
    outlet.closed = True
    assert outlet.on_gone is not None
    outlet.on_gone()
    outlet.until(lambda o: o.closings == 1)  # within BOUND_S, half the keepalive
    for _ in range(300):
        if not broker._channels:
            break
        time.sleep(0.01)
    assert broker._channels == {} and broker._deliverer._streams == set()
    assert outlet.on_gone is None  # the outlet no longer holds its stream


def test_the_next_look_is_when_the_first_keepalive_is_due() -> None:
    """The sweep's answer: the earliest keepalive due among the streams; a stream whose
    keepalive is due while its outlet is busy with a slow reader is looked at again soon."""
    broker = Broker(keepalive=LONG)
    deliverer = broker._deliverer
    streams = [broker.stream("t1", 0) for _ in range(3)]
    outlets = [handed_over(broker, stream)[1] for stream in streams]
    now = time.monotonic()
    for stream, quiet in zip(streams, (10.0, 40.0, 5.0), strict=True):
        stream.last_sent = now - quiet
    assert deliverer._sweep(now) == now + LONG - 40.0
    assert all(outlet.sent == [] for outlet in outlets)
    streams[1].last_sent = now - LONG  # due, but its reader is slow
    outlets[1].busy = True
    assert deliverer._sweep(now) == now + BUSY_S
    assert all(outlet.sent == [] for outlet in outlets)
    outlets[1].busy = False
    assert deliverer._sweep(now) == now + LONG - 10.0  # the keepalive went: LONG from now
    assert outlets[1].sent == [KEEPALIVE]
    for outlet in outlets:
        outlet.closed = True
        assert outlet.on_gone is not None
        outlet.on_gone()
        outlet.until(lambda o: o.closings == 1)
