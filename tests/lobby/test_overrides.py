"""kiosk.settings.overrides: the operator menu's settings survive a restart without ever damaging the
operator's configuration file."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kiosk.settings import config, overrides
from kiosk.settings.overrides import edit_text

CONFIG = """\
# Lobby kiosk -- keep this comment
name = "Library"   # shown in exports
language = "en"    # the default

[attract]
delay = 60

[games]
# the games, best first
enabled = [
  "klondike",   # everyone knows it
  "golf",
  "pyramid",
]

[games.klondike]
draw = 3
"""


def test_edit_keeps_comments_and_every_other_line():
    new = edit_text(CONFIG, {("", "language"): "zh", ("games", "enabled"): ["golf", "clock"]})
    assert "# Lobby kiosk -- keep this comment" in new
    assert 'language = "zh"  # the default' in new
    assert 'enabled = ["golf", "clock"]' in new and "everyone knows it" not in new
    assert "# the games, best first" in new and "[games.klondike]\ndraw = 3" in new
    data = tomllib.loads(new)
    assert data["name"] == "Library" and data["attract"] == {"delay": 60}
    assert data["games"]["klondike"] == {"draw": 3}


def test_edit_adds_missing_keys_and_tables():
    new = edit_text('name = "x"\n\n[attract]\ndelay = 60\n',
                    {("", "language"): "ru", ("games", "enabled"): ["golf"]})
    data = tomllib.loads(new)
    assert data == {"name": "x", "language": "ru", "attract": {"delay": 60},
                    "games": {"enabled": ["golf"]}}
    assert new.index("language") < new.index("[attract]")  # a top-level key stays on top


def test_edit_refuses_what_it_cannot_do_safely():
    with pytest.raises(ValueError):  # a dotted key: editing would declare [games] twice
        edit_text('games.enabled = ["golf"]\n', {("games", "enabled"): ["klondike"]})
    with pytest.raises(ValueError):
        edit_text('games = { enabled = ["golf"] }\n', {("games", "enabled"): ["klondike"]})


def test_save_edits_a_writable_config_in_place_atomically(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    os.chmod(path, 0o640)
    cfg = config.load(path)
    saved = overrides.save(cfg, tmp_path / "data", games=["golf", "klondike"], language="ru")
    assert saved.ok and saved.where == "config" and saved.path == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    again = config.load(path)
    assert again.games == ["golf", "klondike"] and again.language == "ru"
    assert not again.problems and "keep this comment" in path.read_text()
    assert not list(tmp_path.glob(".config.toml.*"))  # no temporary file left behind
    assert not (tmp_path / "data").exists()


def test_read_only_config_gets_an_overrides_file(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    before = path.read_bytes()
    monkeypatch.setattr(overrides, "_writable", lambda p: False)  # root can write anything
    data = tmp_path / "data"
    cfg = config.load(path)
    assert overrides.save(cfg, data, language="zh").where == "overrides"
    saved = overrides.save(cfg, data, games=["pyramid", "golf"])
    assert saved.ok and saved.where == "overrides" and saved.path == data / "overrides.toml"
    assert path.read_bytes() == before  # the operator's file is never touched
    fresh = config.load(path)
    notes = overrides.apply(fresh, data)
    assert notes == [] and fresh.games == ["pyramid", "golf"] and fresh.language == "zh"


def test_a_changed_config_file_wins_over_old_menu_settings(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text(CONFIG)
    monkeypatch.setattr(overrides, "_writable", lambda p: False)
    data = tmp_path / "data"
    overrides.save(config.load(path), data, games=["pyramid"])
    path.write_text(CONFIG.replace('"golf",', '"golf", "clock",'))  # the operator edits it
    fresh = config.load(path)
    notes = overrides.apply(fresh, data)
    assert fresh.games == ["klondike", "golf", "clock", "pyramid"]
    assert len(notes) == 1 and "changed" in notes[0]
    assert (data / "overrides.toml.old").exists() and not (data / "overrides.toml").exists()


def test_bad_overrides_are_reported_and_ignored(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "overrides.toml").write_text('based_on = "none"\nlanguage = "fr"\n'
                                         '[games]\nenabled = ["nope", "golf"]\n')
    cfg = config.load(tmp_path / "missing.toml", env={})
    cfg.problems.clear()
    notes = overrides.apply(cfg, data)
    assert cfg.language == "en" and cfg.games == ["golf"]
    assert any("language" in n for n in notes) and any("nope" in n for n in notes)
    (data / "overrides.toml").write_text("this is not toml [")
    assert "not valid TOML" in overrides.apply(cfg, data)[0]


# ---------------------------------------------------------------------------- file hygiene
def _no_file_config() -> config.Config:
    cfg = config.load("/nonexistent/config.toml", env={})
    cfg.problems.clear()
    return cfg


def _tmp_files(data) -> list:
    return sorted(p.name for p in data.glob(".overrides.toml.*.tmp"))


def test_overrides_toml_is_private_and_an_old_0644_file_is_fixed(tmp_path):
    """It holds the operator PIN's hash (the centre may send one): 0600, also when an
    older kiosk wrote it 0644, fixed by the next write or at the kiosk's start."""
    data = tmp_path / "data"
    cfg = _no_file_config()
    assert overrides.save(cfg, data, language="zh").where == "overrides"
    path = data / "overrides.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    overrides.save(cfg, data, language="ru")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    overrides.tidy(data)  # the kiosk's start
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # a set-aside copy keeps the hash too
    (tmp_path / "config.toml").write_text('name = "x"\n')
    path.chmod(0o644)
    overrides.apply(config.load(tmp_path / "config.toml"), data)
    assert stat.S_IMODE((data / "overrides.toml.old").stat().st_mode) == 0o600


#: a writer that stops for good inside write_atomic, after the temporary file has its text
#: and before the rename: a marker says it is there, then the parent kills it
_STUCK_WRITER = """
import os, sys, time
from pathlib import Path
from kiosk.settings import config, overrides
data = Path(sys.argv[1])
real_fsync = os.fsync
def fsync(fd):
    real_fsync(fd)
    (data / "stuck").write_text("")
    time.sleep(600)
os.fsync = fsync
cfg = config.load("/nonexistent/config.toml", env={})
overrides.save(cfg, data, language="zh")
"""

#: a writer that saves again and again, killed at a random moment
_BUSY_WRITER = """
import sys
from pathlib import Path
from kiosk.settings import config, overrides
data = Path(sys.argv[1])
cfg = config.load("/nonexistent/config.toml", env={})
n = 0
(data / "started").write_text("")
while True:
    n += 1
    overrides.save(cfg, data, language=("zh", "ru", "en")[n % 3],
                   games=["klondike", "golf", "pyramid"][: 1 + n % 3])
"""


def _child(script: str, data) -> subprocess.Popen[bytes]:
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    return subprocess.Popen([sys.executable, "-c", script, str(data)], cwd=repo, env=env)


def test_a_killed_write_leaves_no_temporary_file_behind(tmp_path):
    """SIGKILL mid-write leaves `.overrides.toml.*.tmp` (with whatever it held); the next
    write, or the kiosk's next start, removes it."""
    import signal

    from tests.fleet.pgserver import wait_until

    data = tmp_path / "data"
    data.mkdir()
    cfg = _no_file_config()
    for then in ("write", "start"):
        child = _child(_STUCK_WRITER, data)
        try:
            assert wait_until(lambda: (data / "stuck").exists(), timeout=60)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        (data / "stuck").unlink()
        left = _tmp_files(data)
        assert len(left) == 1, left  # the killed write's file is really there
        assert 'language = "zh"' in (data / left[0]).read_text()
        if then == "write":
            overrides.save(cfg, data, language="ru")
        else:
            overrides.tidy(data)
        assert _tmp_files(data) == []


def test_writers_killed_at_random_moments_leave_a_whole_file_and_no_litter(tmp_path):
    import random
    import signal
    import time

    from tests.fleet.pgserver import wait_until

    data = tmp_path / "data"
    data.mkdir()
    cfg = _no_file_config()
    rnd = random.Random(32)
    litter = 0
    overrides.save(cfg, data, language="en")  # a kill before the child's first write
    for _ in range(12):
        (data / "started").unlink(missing_ok=True)
        child = _child(_BUSY_WRITER, data)
        try:
            assert wait_until(lambda: (data / "started").exists(), timeout=60)
            time.sleep(rnd.uniform(0.0, 0.3))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        litter += len(_tmp_files(data))
        fresh = _no_file_config()
        assert overrides.apply(fresh, data) == []  # whole: the old file or the new one
        overrides.tidy(data)
        assert _tmp_files(data) == []
        assert stat.S_IMODE((data / "overrides.toml").stat().st_mode) == 0o600
    overrides.save(cfg, data, language="en")
    assert _tmp_files(data) == [] and tomllib.loads(
        (data / "overrides.toml").read_text())["language"] == "en"
    print(f"temporary files left by 12 random kills: {litter}")


def test_the_kiosks_start_tidies_the_data_directory(tmp_path, monkeypatch):
    """`kiosk run`'s start path (make_app, up to the app object) calls the tidying."""
    import types

    from kiosk.commands import app as app_cmd
    from kiosk.commands.cli import build_parser
    from kiosk.platform import boot

    data = tmp_path / "data"
    data.mkdir()
    cfg_file = tmp_path / "config.toml"
    cfg_file.write_text(f'[log]\ndata_dir = "{data}"\n')
    (data / ".overrides.toml.abc123.tmp").write_text('operator_pin = "scrypt$..."\n')
    (data / "overrides.toml").write_text(
        f'based_on = "{overrides.fingerprint(cfg_file)}"\nlanguage = "ru"\n')
    (data / "overrides.toml").chmod(0o644)
    monkeypatch.setenv("KIVY_WINDOW", os.environ.get("KIVY_WINDOW", "sdl2"))  # undone after
    monkeypatch.setattr(boot, "missing_display", lambda: None)
    monkeypatch.setattr(boot, "configure", lambda screen, **kw: None)
    monkeypatch.setattr(app_cmd, "_need_window", lambda: None)

    class App:
        def __init__(self, **kw):
            self.cfg, self.notes = kw["cfg"], []

    monkeypatch.setitem(sys.modules, "kiosk.app", types.SimpleNamespace(KioskApp=App))
    app = app_cmd.make_app(build_parser().parse_args(["run", "--config", str(cfg_file)]))
    assert app.cfg.language == "ru"
    assert _tmp_files(data) == []
    assert stat.S_IMODE((data / "overrides.toml").stat().st_mode) == 0o600
