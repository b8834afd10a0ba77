""""Still playing?" in the running app: a slow player is warned, with a countdown of at least
20 s and one large button, before idle gives their game up (WCAG 2.2.1). The lobby's clock
and scheduler are replaced by fake ones moved by hand; touches are simulated."""

from __future__ import annotations

import pytest

from kiosk.lobby import WARNING_SECONDS
from kiosk.screens.idle_warning import LEAST_SECONDS


class FakeTime:
    """A clock and a ``timer(delay, fn)`` scheduler in one, moved by :meth:`advance`."""

    def __init__(self) -> None:
        self.now = 5000.0
        self.due: list[tuple[float, int, object]] = []
        self._n = 0

    def clock(self) -> float:
        return self.now

    def timer(self, delay, fn):
        self._n += 1
        entry = (self.now + delay, self._n, fn)
        self.due.append(entry)
        return lambda: self.due.remove(entry) if entry in self.due else None

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while True:
            ready = sorted(e for e in self.due if e[0] <= end + 1e-9)
            if not ready:
                break
            entry = ready[0]
            self.due.remove(entry)
            self.now = max(self.now, entry[0])
            entry[2]()
        self.now = end


@pytest.fixture
def fake(ui):
    lobby = ui.app.lobby
    saved = (lobby.clock, lobby.timer, lobby.idle_timeout)
    ft = FakeTime()
    lobby.clock, lobby.timer, lobby.idle_timeout = ft.clock, ft.timer, 180.0
    if lobby._warning is not None:
        lobby._warning.clock = ft.clock
    try:
        yield ft
    finally:
        lobby.clock, lobby.timer, lobby.idle_timeout = saved
        if lobby._warning is not None:
            lobby._warning.clock = saved[0]
        lobby.arm()


def warning(ui):
    w = ui.app.lobby._warning
    return w if w is not None and w.shown else None


def test_the_countdown_is_long_enough():
    assert WARNING_SECONDS >= LEAST_SECONDS >= 20


def test_a_slow_player_is_asked_and_a_touch_keeps_the_game(ui, fake):
    app = ui.app
    ctl = app.open_game("klondike", 4711)
    ui.frames(3)
    ui.tap(*ui.card_center("S"))
    play = app.lobby.session.play
    moves = ctl.moves
    fake.advance(179)
    ui.frames(2)
    assert warning(ui) is None and app.sm.current == "table"
    fake.advance(1)
    ui.frames(2)
    w = warning(ui)
    assert w is not None, "no warning after idle_timeout"
    assert w.title.text == "Still playing?" and "30 seconds" in w.countdown.text
    assert w.button.height >= 48 and w.button.text == "Keep playing"
    fake.advance(12)
    ui.frames(2)
    assert "18 seconds" in w.countdown.text and app.sm.current == "table"
    # a touch on a card only answers the question: the card stays where it is
    ui.tap(*ui.card_center("S"))
    assert warning(ui) is None and app.sm.current == "table"
    assert ctl.moves == moves and play.result is None and app.controller is ctl
    # the old deadline passes without effect; the question comes again 180 s after the touch
    fake.advance(179)
    ui.frames(2)
    assert warning(ui) is None and app.sm.current == "table"
    fake.advance(1)
    ui.frames(2)
    assert warning(ui) is not None
    fake.advance(WARNING_SECONDS)
    ui.frames(2)
    assert app.sm.current == "welcome" and warning(ui) is None
    assert play.result == "abandoned"


def warned_at_a_deal(ui, fake):
    """Klondike 4711 left alone for 180 s: the warning is up. Returns the game's controller
    and its seed from before the warning (a press must not deal anew)."""
    ctl = ui.app.open_game("klondike", 4711)
    ui.frames(3)
    seed = ctl.seed
    fake.advance(180)
    ui.frames(2)
    assert warning(ui) is not None
    return ctl, seed


def test_the_warning_speaks_the_visitors_language(ui, fake):
    app = ui.app
    app.open_game("klondike", 4711)
    app.set_language("ru")
    ui.frames(2)
    fake.advance(180)
    ui.frames(2)
    w = warning(ui)
    assert w is not None and w.title.text == "Всё ещё играете?"
    assert "30" in w.countdown.text and "seconds" not in w.countdown.text
    fake.advance(WARNING_SECONDS)
    ui.frames(2)
    assert app.sm.current == "welcome" and app.lang == "en"


def test_a_button_press_answers_and_deals_nothing(ui, fake):
    app = ui.app
    ctl, seed = warned_at_a_deal(ui, fake)
    assert ui.key(110, "n")          # the New deal key (the hardware button's stand-in)
    ui.frames(2)
    assert warning(ui) is None and ctl.seed == seed and app.sm.current == "table"


def test_the_picker_and_a_hand_table_ask_too(ui, fake):
    app = ui.app
    app.show_picker()
    ui.frames(2)
    fake.advance(180)
    ui.frames(2)
    assert warning(ui) is not None and app.sm.current == "picker"
    fake.advance(WARNING_SECONDS - 1)
    ui.frames(2)
    assert app.sm.current == "picker"
    fake.advance(1)
    ui.frames(2)
    assert app.sm.current == "welcome" and warning(ui) is None
    # a hand against the computer
    app.open_game("gin_rummy", 3)
    ui.frames(3)
    screen = app.sm.current
    assert screen == "gin"
    fake.advance(180)
    ui.frames(2)
    assert warning(ui) is not None
    ui.tap(ui.window.width / 2, ui.window.height / 2)
    assert warning(ui) is None and app.sm.current == screen
    fake.advance(180 + WARNING_SECONDS)
    ui.frames(2)
    assert app.sm.current == "welcome"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_warning_fits_in_every_language(ui, fake, size):
    from tests.ui.test_text_fit import label_problems

    app = ui.app
    ui.resize(*size)
    app.show_picker()
    ui.frames(2)
    fake.advance(180)
    ui.frames(2)
    w = warning(ui)
    assert w is not None
    problems = []
    for lang in ("zh", "en", "ru"):
        app.set_language(lang)
        w.retranslate()
        ui.frames(2)
        assert w.button.height >= 48 and w.button.width >= 48
        problems += label_problems(w, f"warning {size} {lang}")
        problems += [f"{size} {lang}: {lab.text!r} cut" for lab in (w.title, w.countdown, w.button)
                     if lab.is_cut()]
    assert not problems, problems


def test_a_hardware_button_answers_too(ui, fake):
    app = ui.app
    ctl, seed = warned_at_a_deal(ui, fake)
    pin = ui.pins.pin(17)            # New deal, wired to ground: low is pressed
    pin.drive_low()
    ui.wait(0.12)
    pin.drive_high()
    assert ui.until(lambda: warning(ui) is None, 3)
    ui.wait(0.25)
    assert ctl.seed == seed and app.sm.current == "table" and app.controller is ctl


def _sit(ui, where: str) -> None:
    app = ui.app
    if where == "picker":
        app.show_picker()
    else:
        app.open_game(where, 3)
    ui.frames(3)


@pytest.mark.parametrize("where", ["klondike", "golf", "gin_rummy", "draw_poker",
                                   "follow_the_rules", "picker"])
@pytest.mark.parametrize("timeout", [10.0, 180.0])
def test_every_warning_gives_at_least_20_seconds(ui, fake, where, timeout):
    """The first warning and each one after a prompt answer count down from at least 20 s,
    at every table, with the shortest idle timeout the configuration allows too: at a
    solitaire table with a 10 s timeout the second "Still playing?" came 28.6 s after an
    answer given 1.4 s into the first, with 12 s left (the first warning's deadline was
    still pending), then the reset. The kiosk's clock is driven by hand."""
    app = ui.app
    app.lobby.idle_timeout = timeout
    _sit(ui, where)
    screen = app.sm.current
    for round_ in range(3):
        fake.advance(timeout - 0.25)
        ui.frames(1)
        assert warning(ui) is None, f"round {round_}: asked before {timeout} s of quiet"
        fake.advance(0.5)
        ui.frames(1)
        w = warning(ui)
        assert w is not None, f"round {round_}: not asked after {timeout} s of quiet"
        given = w.deadline - fake.now
        assert given >= LEAST_SECONDS, f"round {round_}: {given:.1f} s to answer"
        fake.advance(1.4)
        ui.frames(1)
        assert app.sm.current == screen
        ui.key(110, "n")  # a prompt answer (the New deal key: it only answers)
        ui.frames(2)
        assert warning(ui) is None and app.sm.current == screen
    fake.advance(timeout)
    ui.frames(2)
    w = warning(ui)
    assert w is not None
    fake.advance(w.deadline - fake.now - 0.5)
    ui.frames(2)
    assert app.sm.current == screen
    fake.advance(1)
    ui.frames(2)
    assert app.sm.current == "welcome"
