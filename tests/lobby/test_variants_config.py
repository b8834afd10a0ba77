"""The operator's choice of named variants: ``[games.<id>] offer_variants`` and
``default_variant`` are checked like every other key, and whatever the checker accepts
deals a game the engine takes."""

from __future__ import annotations

import itertools

import games
from kiosk.commands.cli import main
from kiosk.settings import config, overrides, variants


def test_every_named_variant_is_a_set_of_options_its_engine_takes():
    for game_id, named in variants.VARIANTS.items():
        assert len(named) >= 2 and len({v.key for v in named}) == len(named)
        for v in named:
            game = games.new(game_id, 1, **v.options)
            assert all(game.opts[k] == val for k, val in v.options.items())


def test_every_accepted_choice_deals_a_game():
    for game_id, named in variants.VARIANTS.items():
        keys = [v.key for v in named]
        engine = {o.name: o.default for o in games.game_class(game_id).options}
        # without a valid operator default: the offered variant the engine's defaults name
        # (Draw Poker's 3 opponents), else the first offered
        natural = {v.key for v in named if all(engine.get(k) == x for k, x in v.options.items())}
        for n in range(1, len(keys) + 1):
            for offer, default in itertools.product(itertools.combinations(keys, n), keys):
                cfg = config.load_text(f"[games.{game_id}]\noffer_variants = {list(offer)!r}\n"
                                       f"default_variant = {default!r}\n".replace("'", '"'))
                chosen = variants.default(cfg, game_id)
                assert [v.key for v in variants.offered(cfg, game_id)] == [
                    k for k in keys if k in offer]
                fallback = next((k for k in offer if k in natural), offer[0])
                assert chosen.key == (default if default in offer else fallback)
                assert bool(cfg.problems) == (default not in offer)
                games.new(game_id, 7, **{**cfg.options_for(game_id), **chosen.options})


def test_bad_variant_keys_are_named_and_ignored():
    cfg = config.load_text('[games.klondike]\noffer_variants = "draw3"\n'
                           'default_variant = "draw9"\n[games.golf]\noffer_variants = ["a"]\n')
    assert len(cfg.problems) == 3
    assert any("games.klondike.offer_variants" in p and "offering all" in p
               for p in cfg.problems)
    assert any("games.klondike.default_variant" in p and "draw9" in p for p in cfg.problems)
    assert any("games.golf.offer_variants: golf has no named variants" in p
               for p in cfg.problems)
    assert not cfg.variant_offer and not cfg.variant_default
    assert [v.key for v in variants.offered(cfg, "klondike")] == [
        "draw1", "draw3", "draw3_three_passes"]


def test_config_check_accepts_it_and_names_a_mistake(tmp_path, capsys):
    good = tmp_path / "good.toml"
    good.write_text('[games.klondike]\noffer_variants = ["draw1", "draw3"]\n'
                    'default_variant = "draw3"\n')
    assert main(["config", "check", "--config", str(good)]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text('[games.pyramid]\ndefault_variant = "upside_down"\n')
    assert main(["config", "check", "--config", str(bad)]) == 1
    assert "games.pyramid.default_variant" in capsys.readouterr().out


def test_the_menus_choice_is_saved_and_read_back(tmp_path):
    cfg = config.Config()
    cfg.games = config.default_games()
    cfg.variant_offer["klondike"] = ["draw3", "draw3_three_passes"]
    cfg.variant_default["klondike"] = "draw3_three_passes"
    saved = overrides.save(cfg, tmp_path, variants={"klondike": (
        ["draw3", "draw3_three_passes"], "draw3_three_passes")})
    assert saved.ok
    again = config.Config()
    assert overrides.apply(again, tmp_path) == []
    assert again.variant_offer == {"klondike": ["draw3", "draw3_three_passes"]}
    assert again.variant_default == {"klondike": "draw3_three_passes"}
