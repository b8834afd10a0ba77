"""Counting the font faces Kivy's text provider is asked for.

Kivy keeps each (font, size, bold) it is asked for open as an SDL_ttf face (about 0.5 MB
for the kiosk's CJK font, at most 64, in a cache Python cannot see), so the distinct ids it
is asked for are the faces the process holds: what the font ladder
(:mod:`kiosk.screens.font_ladder`) keeps few. Used by bench/app.py's memory split,
bench/soak.py and the ladder's tests, never by the running kiosk.
"""

from __future__ import annotations

from collections.abc import Callable


def watch_font_faces() -> tuple[dict[str, None], Callable[[], None]]:
    """The face ids asked for from now on (in the order first asked), and the call that
    stops counting."""
    from kivy.core.text import Label as CoreLabel

    seen: dict[str, None] = {}
    ask = CoreLabel._get_font_id

    def counted(label) -> str:
        fid = ask(label)
        seen.setdefault(fid, None)
        return fid

    def stop() -> None:
        CoreLabel._get_font_id = ask

    CoreLabel._get_font_id = counted
    return seen, stop
