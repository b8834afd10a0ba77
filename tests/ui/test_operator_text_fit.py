"""The operator's screens get the visitor's text-fit check: the PIN pad and every page of the
menu, in each state it can show, in zh, en and ru at 800x480 and 720x1280. Besides
:func:`label_problems` (no text bigger than its box, none cut), no name on the Games and
Statistics pages is shortened with "…", nothing outside a list sticks out of the page's
panel (the Russian Export page's first line lay above it, against the header), every
button is a 48 px target with a gap to its neighbours, and nothing in a list reaches under
its scroll bar. The states: tests/ui/operator_walk.py."""

from __future__ import annotations

import pytest
from kivy.clock import Clock
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from kiosk.screens.text_fit import ELLIPSIS, TOUCH_GAP, TOUCH_PX
from tests.ui.operator_walk import operator_places
from tests.ui.test_text_fit import SIZES, _in_scroll, label_problems


def _settle(ui) -> None:
    for _ in range(3):
        Clock.tick_draw()
    ui.frames(2)


def _rect(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    return x0, y0, x0 + w.width, y0 + w.height


def _visible(w) -> bool:
    p, seen = w, set()
    while p is not None and id(p) not in seen:
        if p.opacity == 0:
            return False
        seen.add(id(p))
        p = p.parent
    return w.width > 1 and w.height > 1


def layout_problems(root, panel, where: str, u: float, *, names: bool) -> list[str]:
    """Buttons smaller than a finger or touching a neighbour; widgets outside a list that
    stick out of ``panel``; with ``names``, labels shortened with an ellipsis."""
    out: list[str] = []
    px0, py0, px1, py1 = _rect(panel) if panel is not None else (0, 0, 1e9, 1e9)
    buttons = []
    for w in root.walk(restrict=True):
        if not _visible(w):
            continue
        text = str(getattr(w, "text", ""))[:30]
        if isinstance(w, ButtonBehavior):
            if w.height < TOUCH_PX * u - 0.5 or w.width < TOUCH_PX * u - 0.5:
                out.append(f"{where}: button {text!r} {w.width:.0f}x{w.height:.0f} is "
                           f"smaller than {TOUCH_PX * u:.0f} px")
            buttons.append(w)
        if panel is not None and w is not panel and _is_under(w, panel) and not _in_scroll(w):
            x0, y0, x1, y1 = _rect(w)
            if x0 < px0 - 1 or y0 < py0 - 1 or x1 > px1 + 1 or y1 > py1 + 1:
                out.append(f"{where}: {type(w).__name__} {text!r} ({x0:.0f},{y0:.0f})-"
                           f"({x1:.0f},{y1:.0f}) outside the panel ({px0:.0f},{py0:.0f})-"
                           f"({px1:.0f},{py1:.0f})")
        if names and isinstance(w, Label) and str(w.text).strip():
            w.texture_update()
            laid = "".join(word.text for line in (w._label._cached_lines or [])
                           for word in line.words)
            if ELLIPSIS in laid and ELLIPSIS not in str(w.text):
                out.append(f"{where}: {type(w).__name__} {text!r} shortened to {laid!r}")
    gap = TOUCH_GAP * u
    for k, a in enumerate(buttons):
        ax0, ay0, ax1, ay1 = _rect(a)
        for b in buttons[k + 1:]:
            bx0, by0, bx1, by1 = _rect(b)
            if ax0 < bx1 + gap - 0.5 and bx0 < ax1 + gap - 0.5 and \
                    ay0 < by1 + gap - 0.5 and by0 < ay1 + gap - 0.5:
                out.append(f"{where}: buttons {str(a.text)[:20]!r} and {str(b.text)[:20]!r} "
                           f"are less than {gap:.0f} px apart")
    return out


def _is_under(w, root) -> bool:
    p, seen = w.parent, set()
    while p is not None and id(p) not in seen:
        if p is root:
            return True
        seen.add(id(p))
        p = p.parent
    return False


def bar_problems(root, where: str, u: float) -> list[str]:
    """Widgets of a list that reach under its scroll bar (the strip at the list's right
    edge where the bar is drawn and a touch scrolls): "Sync now" lay under it."""
    out = []
    for sv in root.walk(restrict=True):
        if not isinstance(sv, ScrollView) or not _visible(sv):
            continue
        bar_x0 = sv.to_window(sv.right - sv.bar_width - sv.bar_margin, sv.y)[0]
        for w in sv.walk(restrict=True):
            if w is sv or not _visible(w) or not isinstance(w, (ButtonBehavior, Label)):
                continue
            if isinstance(w, Label) and not str(w.text).strip():
                continue
            x1 = _rect(w)[2]
            if x1 > bar_x0 + 0.5:
                out.append(f"{where}: {type(w).__name__} {str(w.text)[:30]!r} reaches "
                           f"{x1 - bar_x0:.0f} px under the scroll bar")
    return out


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("size", SIZES)
def test_every_operator_page_fits_in_every_language(ui, monkeypatch, size):
    """The PIN pad and every page in every state (tests/ui/operator_walk.py)."""
    problems: list[str] = []
    u = min(size) / 480
    for name, where, root in operator_places(ui, monkeypatch, sizes=[size],
                                             every_position=False):
        _settle(ui)
        menu = ui.app.operator
        panel = menu.panel if root is menu else None
        problems += label_problems(root, where)
        problems += layout_problems(root, panel, where, u,
                                    names=name.startswith(("games", "stats")))
        problems += bar_problems(root, where, u)
    assert not problems, "\n".join(problems[:400]) + f"\n({len(problems)} in all)"
