"""A label given its wanted size again draws the size it was fitted to, not the size asked.

The bug: a screen's layout sets ``font_size`` on every arrangement; the label refits at once
(``on_font_size``) and shrinks, but Kivy's own observer of the same change ran afterwards
and handed the core label the size asked for. The text was then drawn too big for its box:
"Choose a game" broke over two lines and out of the portrait picker's title bar whenever
the picker was arranged twice at one size (a language switch, or built when first shown).
"""

from __future__ import annotations

from kiosk.screens.text_fit import FitLabel, text_width


def test_a_label_shrunk_to_fit_is_drawn_at_its_fitted_size_after_a_new_layout():
    want = 45.0
    text = "Choose a game"
    wide = text_width(text, want, "Roboto", True)
    lab = FitLabel(text=text, bold=True, font_size=want, min_font=20,
                   size_hint=(None, None), size=(wide - 10, want * 1.3))
    assert lab.font_size < want  # one line only fits smaller
    for asked in (want, 30.0, want):  # the screen arranges itself again
        lab.font_size = asked
        assert lab._label.options["font_size"] == lab.font_size
    lab.texture_update()
    assert "\n" not in lab.shown and lab.texture_size[1] < want * 1.3


def test_a_centred_label_of_three_lines_draws_all_three():
    """Kivy, given a height to lay out in, dropped the last of n lines broken by "\\n" in a
    centred label unless the height held n + 1: the hand tables' end panel lost "续。" (3
    lines of 44 px in a 165 px box). Every line the label chose is drawn."""
    from kiosk.screens.text_fit import line_px

    text = "Hand 2: you 3, the computer 5.\nYour game is kept.\nChoose it again to go on."
    lab = FitLabel(text=text, font_size=30.0, min_font=12, halign="center", valign="middle",
                   size_hint=(None, None))
    lab.size = (700.0, 3.5 * line_px(30.0, lab.font_name))  # 3 lines fit, 4 would not
    lab.texture_update()
    chosen = [ln for ln in lab.shown.split("\n") if ln.strip()]
    laid = ["".join(w.text for w in line.words) for line in lab._label._cached_lines]
    assert len(chosen) == 3 and laid == chosen, (chosen, laid)
