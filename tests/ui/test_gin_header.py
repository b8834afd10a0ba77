"""The Gin Rummy table's header line ("Hand 1 · You 0 · Computer 0") keeps a margin from
the screen's edge and from the Home button, in portrait Russian too, and keeps its words
whole at no less than the reading floor."""

from __future__ import annotations

from kiosk.screens.text_fit import READ_PX, text_width

from .test_text_fit import label_problems


def test_portrait_russian_header_stays_off_the_edge(ui):
    ui.reset("ru", (720, 1280))
    ui.app.open_game("gin_rummy", 4711)
    ui.frames(3)
    gin = ui.app.gin
    score, home = gin.score, gin.home
    assert score.text.startswith("Раздача")
    u = min(ui.window.size) / 480
    assert score.font_size >= READ_PX * u - 0.01
    widest = max(text_width(line, score.font_size, score.font_name, True)
                 for line in getattr(score, "shown", score.text).split("\n"))
    left = score.center_x - widest / 2
    right = score.center_x + widest / 2
    margin = 8 * u
    assert right <= ui.window.width - margin, (right, ui.window.width)
    assert left >= home.right + margin, (left, home.right)
    assert not label_problems(score, "gin header"), label_problems(score, "gin header")
