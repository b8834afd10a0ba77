"""The configuration checker's problems are values as well as lines (issue 34): ``kiosk
config check`` prints each as the English line it always printed, and the operator menu's
Status page shows the same problem in the operator's language, file names, keys and
values as written, every sentence around them translated."""

from __future__ import annotations

from games.engine.reason import Reason
from kiosk.commands.cli import main
from kiosk.i18n import REASONS, UI, catalog, translate
from kiosk.settings import config, overrides
from kiosk.settings.problem import Problem
from tests.ui.operator_walk import BAD_CONFIG

#: files that reach each way the checker reports a problem
MORE = [
    'operator_pin = "12"\nname = ""\n[fleet]\nserver = "db"\npassword = " x"\n'
    'sslmode = "maybe"\nmetrics_dir = 5\n[attract]\nenabled = "yes"\n',
    'operator_pin = "scrypt$zz"\n[buttons]\nnew_deal_pin = 17\nundo_pin = 17\n'
    '[export]\nusb_mount = "x\\u0000"\n[fleet]\nuser = "kiosk_x"\ndatabase = "a b"\n',
    'attract = 5\n[games]\nenabled = "klondike"\n[games.klondike]\nwinnable_only = "yes"\n'
    'default_variant = "draw5"\n[games.golf]\noffer_variants = ["nope", 3]\n',
    '[games]\nenabled = ["no_such_game"]\nklondike = 3\n[games.no_such_game]\nx = 1\n'
    '[games.pyramid]\ndefault_variant = "x"\n',
    '[games.klondike]\noffer_variants = ["draw1"]\ndefault_variant = "draw3"\n'
    '[games.golf]\ndraw = true\n',
    'name = "a\\u0001b"\n[fleet]\nserver = "a b"\nport = 1.5\n',
    "[broken\n",
]


def _problems(tmp_path) -> list[str]:
    out = list(config.load_text(BAD_CONFIG, "/etc/solitaire-kiosk/config.toml").problems)
    for k, text in enumerate(MORE):
        out += config.load_text(text, f"/etc/solitaire-kiosk/more-{k}.toml").problems
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('name = "Caf\xe9"\n'.encode("latin-1"))
    out += config.load(bad).problems
    out += config.load(tmp_path / "missing.toml").problems
    (tmp_path / overrides.FILE_NAME).write_text("[games\n")
    out += overrides.apply(config.Config(), tmp_path)
    return out


def _msgids(value) -> list[str]:
    if isinstance(value, Reason):
        out = [value.msgid]
        for _k, v in value.params:
            out += _msgids(v)
        return out
    return []


def test_every_problem_is_its_english_line_and_a_value_translated_in_every_language(tmp_path):
    problems = _problems(tmp_path)
    assert len(problems) >= 45
    seen = set()
    for problem in problems:
        assert isinstance(problem, Problem), problem
        assert str(problem.reason) == problem  # what `kiosk config check` prints
        for msgid in _msgids(problem.reason):
            seen.add(msgid)
            for lang in ("zh", "ru"):
                assert catalog(lang).get(msgid) or catalog(lang, REASONS).get(msgid), \
                    (lang, msgid)
        zh = translate(problem.reason, "zh")
        assert zh != str(problem), problem
        assert not any(word in zh for word in ("using", "ignored", "should be", "is not")), zh
    assert len(seen) >= 40  # most of the checker's sentences were met


def test_config_check_still_prints_english_lines_and_the_same_status(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text(BAD_CONFIG)
    assert main(["config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    for problem in config.load(path).problems:
        assert problem in out
    assert "unknown key; ignored" in out and not any("\u4e00" <= c <= "\u9fff" for c in out)


def test_a_problem_survives_a_copy_and_a_pickle():
    import copy
    import pickle

    (problem,) = config.load_text("colour = 1\n", "x.toml").problems
    for twin in (copy.deepcopy(problem), pickle.loads(pickle.dumps(problem))):
        assert twin == problem and twin.reason == problem.reason


def test_the_ui_catalog_holds_the_checkers_sentences_once(tmp_path):
    """The checker's sentences live in the UI catalog (the Status page's), the games' option
    sentences in the reasons catalog: each is found where translate() looks first."""
    for problem in _problems(tmp_path):
        for msgid in _msgids(problem.reason):
            assert (msgid in catalog("en", UI)) != (msgid in catalog("en", REASONS)), msgid
