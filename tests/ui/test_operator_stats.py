"""The operator's Statistics page shows for the games against the computer what counts
there (matches, hands won, lost and tied, Draw Poker's chips, by level), not a solitaire's
plays and win rate."""

from __future__ import annotations

from tests.ui.test_operator_text_fit import _statistics


def _texts(widget) -> str:
    return "\n".join(str(w.text) for w in widget.walk() if hasattr(w, "text"))


def test_the_games_against_the_computer_have_their_own_figures(ui, monkeypatch):
    app = ui.app
    monkeypatch.setattr(app, "statistics", _statistics)
    try:
        app.show_operator("stats")
        menu = app.operator
        menu.pages["stats"].scope = "all"
        menu.rebuild()
        ui.frames(2)
        shown = _texts(menu.panel)
        assert "Against the computer" in shown
        assert "Draw Poker · Easy" in shown and "Gin Rummy · Normal" in shown
        assert "Chips: the visitor won 12345 and lost 23456" in shown
        assert shown.count("Chips:") == 2  # poker at two levels; gin is played for points
        assert "Hands: 230; the visitor won 101, lost 99, tied or split 30" in shown
        assert menu.widgets["seated_rows"] == 6
        # not among the solitaires' plays and win rates
        assert "Draw Poker\n" not in shown.replace("Draw Poker ·", "")
    finally:
        app.go_welcome()
