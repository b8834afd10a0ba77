"""Draw Poker's section of the operator's Games page has a level row like the other two
games against the computer: the operator picks the level the visitors' level row starts
on, it is saved, and it survives a restart (in the file or in the overrides file)."""

from __future__ import annotations

from kiosk.settings import config, overrides, variants


def test_draw_poker_has_a_level_row_that_sets_and_saves_the_starting_level(ui):
    app = ui.app
    path = ui.config_path
    original = path.read_text()
    before = dict(app.cfg.game_options.get("draw_poker", {}))
    try:
        app.show_operator("games")
        ui.frames(3)
        menu = app.operator
        levels = {k: b for (g, k), b in menu.widgets.get("levels", {}).items()
                  if g == "draw_poker"}
        assert set(levels) == {v.key for v in variants.levels_beside("draw_poker")}
        start = variants.default_level(app.cfg, "draw_poker")
        assert levels[start].text.startswith("★")
        other = next(k for k in levels if k != start)
        menu.pages["games"].set_level("draw_poker", other)  # what the button's release does
        assert variants.default_level(app.cfg, "draw_poker") == other
        assert config.load(path).game_options["draw_poker"]["level"] == other
        assert 'flavour = "vanilla"' in path.read_text()  # the rest of the file is kept
        button = menu.widgets["levels"][("draw_poker", other)]
        assert button.text.startswith("★") and button.height >= 48
    finally:
        path.write_text(original)
        if before:
            app.cfg.game_options["draw_poker"] = before
        else:
            app.cfg.game_options.pop("draw_poker", None)
        app.go_welcome()


def test_the_level_survives_a_restart_in_the_overrides_file(tmp_path, monkeypatch):
    cfg_path = tmp_path / "kiosk.toml"
    cfg_path.write_text('name = "x"\n')
    cfg = config.load(cfg_path)
    # the image: the file cannot be written (even by root), the data directory can
    monkeypatch.setattr(overrides, "_writable", lambda _path: False)
    data = tmp_path / "data"
    saved = overrides.save(cfg, data, levels={"draw_poker": "easy"})
    assert saved.ok and saved.where == "overrides"
    assert 'level = "easy"' in (data / overrides.FILE_NAME).read_text()
    again = config.load(cfg_path)
    assert overrides.apply(again, data) == []
    assert again.game_options["draw_poker"]["level"] == "easy"
    assert variants.default_level(again, "draw_poker") == "easy"
