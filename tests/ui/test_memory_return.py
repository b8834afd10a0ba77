"""Back on the welcome screen after a table, the kiosk hands its allocator's free memory back.

Why: a visitor's table builds and drops thousands of objects; glibc keeps the freed pages
(36 MB of the 242 MB measured after 50 deals, docs/benchmarks.md) unless asked to return
them, and a Pi Zero 2 W has 512 MB for the kiosk and the GPU.
"""

from __future__ import annotations

from kiosk.platform import heap


def test_leaving_a_table_for_the_welcome_screen_trims_the_allocator(ui, monkeypatch):
    trims: list[int] = []
    monkeypatch.setattr(heap, "give_back", lambda: trims.append(1) or True)
    ui.app.open_game("klondike", 3)
    ui.frames(2)
    assert trims == []  # not while a visitor plays
    ui.app.go_welcome()
    ui.frames(3)
    assert ui.app.sm.current == "welcome" and trims == [1]
    ui.app.show_picker()
    ui.frames(2)
    ui.app.show_welcome()  # from the picker: no table was left, nothing to give back
    ui.frames(3)
    assert trims == [1]

