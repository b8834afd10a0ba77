"""The operator PIN: no PIN anyone could have read works on a fresh kiosk, a configuration
that stops parsing keeps the previous PIN, and ``kiosk operator pin`` shows and sets it."""

from __future__ import annotations

import io
import re
import stat
from pathlib import Path

import pytest

from kiosk.commands import cli
from kiosk.settings import config, overrides
from kiosk.settings.operator import guard_for
from kiosk.settings.operator_pin import HASH_FILE, PLAIN_FILE, PinStore, hash_pin, verify

ROOT = Path(__file__).resolve().parents[2]
#: every text an operator or a visitor may have read
PUBLIC_TEXTS = [ROOT / "README.md", ROOT / "config.example.toml",
                *sorted((ROOT / "docs").glob("*.md"))]
GOOD = 'name = "Library"\noperator_pin = "4711"\n'


def printed_pins() -> set[str]:
    """Every 4 to 8 digit number on a line of the docs that speaks of a PIN."""
    found = {"2580", "0000", "1234"}
    for path in PUBLIC_TEXTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"(?i)\bpin\b|operator_pin", line):
                found.update(re.findall(r"(?<!\d)\d{4,8}(?!\d)", line))
    return found


@pytest.fixture
def kiosk_dirs(tmp_path, monkeypatch):
    """A data directory for the kiosk and a default one that is not /var/lib (root can
    write there in CI); returns (config file, data dir)."""
    data = tmp_path / "data"
    monkeypatch.setattr(config, "DEFAULT_DATA_DIR", tmp_path / "default-data")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "config.toml", data


def write_config(path: Path, text: str, data: Path, bom: bool = False) -> None:
    body = text + f'[log]\ndata_dir = "{data}"\n'
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + body.encode())


def kiosk_load(path: Path) -> config.Config:
    """How ``kiosk run`` reads its configuration."""
    return config.load(path, env={}, fallback=True, remember=True)


# ---------------------------------------------------------------------------- fresh kiosk
def test_a_fresh_kiosk_accepts_no_pin_printed_anywhere(tmp_path):
    example = config.load(ROOT / "config.example.toml", env={})
    assert example.problems == [] and example.operator_pin is None
    assert config.Config().operator_pin is None
    guard = guard_for(example.operator_pin, tmp_path / "data")
    pins = printed_pins()
    assert "2580" in pins
    assert not any(guard.matches(p) for p in pins)
    # and the PIN the kiosk drew is in a file only root and the kiosk may read
    plain = (tmp_path / "data" / PLAIN_FILE)
    assert guard.matches(plain.read_text().strip())
    assert stat.S_IMODE(plain.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "data" / HASH_FILE).stat().st_mode) == 0o600


def test_the_drawn_pin_is_random_kept_hashed_and_stable(tmp_path):
    a, b = PinStore(tmp_path / "a").ensure(), PinStore(tmp_path / "b").ensure()
    assert a.plain != b.plain and len(a.plain) == 6 and a.plain.isdigit()
    assert a.plain not in (tmp_path / "a" / HASH_FILE).read_text()
    assert PinStore(tmp_path / "a").ensure() == a  # the next start keeps it


def test_a_damaged_pin_file_is_kept_aside_and_never_gives_a_known_pin(tmp_path):
    store = PinStore(tmp_path)
    store.hash_path.write_text('{"hash": "2580"}')
    fresh = store.ensure()
    assert verify(fresh.plain, fresh.hashed) and not verify("2580", fresh.hashed)
    assert [p.name.split(".corrupt-")[0] for p in tmp_path.glob("*.corrupt-*")] == [HASH_FILE]


def test_a_configured_pin_is_hashed_on_load_and_wins(tmp_path):
    cfg = config.load_text(GOOD, "k.toml")
    assert cfg.problems == [] and "4711" not in str(cfg.to_dict())
    PinStore(tmp_path).set("9999")
    guard = guard_for(cfg.operator_pin, tmp_path)
    assert guard.matches("4711") and not guard.matches("9999")
    hashed = hash_pin("86420")
    as_hash = config.load_text(f'operator_pin = "{hashed}"', "k.toml")
    assert as_hash.problems == [] and guard_for(as_hash.operator_pin, None).matches("86420")


# ---------------------------------------------------------------------------- parse failures
@pytest.mark.parametrize("damage", [
    lambda text: text + "queen_on_king = yes\n",        # a typo: not TOML
    lambda text: text.replace('"Library"', '"Library'),  # an unclosed string
    lambda text: "\ufeff" + text + "[buttons\n",        # Notepad's BOM and a typo
    lambda text: text.replace("Library", "Bibliothèque").encode("latin-1"),  # not UTF-8
])
def test_a_file_that_stops_parsing_keeps_the_previous_pin(kiosk_dirs, damage):
    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    assert kiosk_load(path).problems == []
    broken = damage(path.read_text())
    path.write_bytes(broken if isinstance(broken, bytes) else broken.encode())
    cfg = kiosk_load(path)
    assert cfg.broken_file == path
    assert len(cfg.problems) == 1 and str(path) in cfg.problems[0]
    assert "last configuration that loaded cleanly" in cfg.problems[0]
    assert cfg.name == "Library" and cfg.log.data_dir == data
    guard = guard_for(cfg.operator_pin, cfg.data_dir())
    assert guard.matches("4711") and not guard.matches("2580")


def test_notepad_s_byte_order_mark_is_not_an_error(kiosk_dirs):
    path, data = kiosk_dirs
    write_config(path, GOOD, data, bom=True)
    cfg = kiosk_load(path)
    assert cfg.problems == [] and cfg.broken_file is None and cfg.name == "Library"
    assert guard_for(cfg.operator_pin, data).matches("4711")


def test_without_a_good_copy_a_broken_file_gives_defaults_and_no_known_pin(kiosk_dirs):
    path, data = kiosk_dirs
    path.write_text("queen_on_king = yes\n")
    cfg = kiosk_load(path)
    assert cfg.broken_file == path and "using the built-in defaults" in cfg.problems[0]
    assert cfg.operator_pin is None
    guard = guard_for(cfg.operator_pin, cfg.data_dir())
    assert not any(guard.matches(p) for p in printed_pins())


def test_the_copy_is_found_in_the_default_data_dir_too(kiosk_dirs):
    path, _data = kiosk_dirs
    path.write_text(GOOD)  # no [log] data_dir: the default one
    kiosk_load(path)
    assert (config.DEFAULT_DATA_DIR / config.LAST_GOOD_NAME).read_text() == GOOD
    path.write_text("[[[")
    assert guard_for(kiosk_load(path).operator_pin, None).matches("4711")


def test_only_the_kiosk_keeps_copies_and_only_of_files_that_parse(kiosk_dirs):
    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    config.load(path, env={})  # config check, tests, ...: never write
    assert not (data / config.LAST_GOOD_NAME).exists()
    kiosk_load(path)
    copy = data / config.LAST_GOOD_NAME
    assert copy.read_bytes() == path.read_bytes()
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    path.write_text(path.read_text() + "oops = \n")
    kiosk_load(path)
    assert "oops" not in copy.read_text()


def test_the_menu_s_settings_survive_a_broken_file(kiosk_dirs, monkeypatch):
    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    cfg = kiosk_load(path)
    monkeypatch.setattr(overrides, "_writable", lambda _p: False)  # the image's /etc
    assert overrides.save(cfg, data, language="ru").where == "overrides"
    path.write_text(path.read_text() + "queen_on_king = yes\n")
    broken = kiosk_load(path)
    assert overrides.apply(broken, data) == [] and broken.language == "ru"
    assert (data / overrides.FILE_NAME).exists()


def test_config_check_still_reports_the_error(kiosk_dirs, capsys):
    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    kiosk_load(path)
    path.write_text(path.read_text() + "queen_on_king = yes\n")
    assert cli.main(["config", "check", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    assert "not valid TOML" in out and "last configuration that loaded cleanly" in out


# ---------------------------------------------------------------------------- the command
def run(args: list[str], monkeypatch, capsys, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_pin_show_and_set_round_trip(kiosk_dirs, monkeypatch, capsys):
    path, data = kiosk_dirs
    write_config(path, 'name = "Library"\n', data)
    c = ["--config", str(path)]
    code, out, _ = run(["operator", "pin", "--show", *c], monkeypatch, capsys)
    drawn = out.split()[0]
    assert code == 0 and re.fullmatch(r"\d{6}", drawn)
    assert guard_for(None, data).matches(drawn)
    assert run(["operator", "pin", "--show", *c], monkeypatch, capsys)[1].split()[0] == drawn
    code, out, _ = run(["operator", "pin", "--set", *c], monkeypatch, capsys, stdin="2468\n")
    assert code == 0 and "changed" in out
    guard = guard_for(None, data)
    assert guard.matches("2468") and not guard.matches(drawn)
    assert not (data / PLAIN_FILE).exists() and "2468" not in (data / HASH_FILE).read_text()
    code, out, _ = run(["operator", "pin", "--show", *c], monkeypatch, capsys)
    assert code == 0 and "--set" in out and "2468" not in out
    assert run(["operator", "pin", "--set", "97531", *c], monkeypatch, capsys)[0] == 0
    assert guard_for(None, data).matches("97531")


@pytest.mark.parametrize("args, stdin", [
    (["--set", "12"], None), (["--set", "123456789"], None), (["--set", "12a4"], None),
    (["--set"], "\n"), (["--set"], "１２３４\n"), (["--hash", "1"], None), ([], None),
    (["--show", "--unlock"], None), (["--bogus"], None),
])
def test_bad_input_exits_2_and_changes_nothing(kiosk_dirs, monkeypatch, capsys, args, stdin):
    path, data = kiosk_dirs
    write_config(path, "", data)
    PinStore(data).set("4711")
    before = (data / HASH_FILE).read_bytes()
    code, out, err = run(["operator", "pin", *args, "--config", str(path)], monkeypatch, capsys,
                         stdin=stdin)
    assert code == 2 and err.strip().splitlines()[-1].startswith("kiosk: ")
    assert (data / HASH_FILE).read_bytes() == before


def test_pin_hash_gives_a_line_the_configuration_accepts(monkeypatch, capsys):
    code, out, _ = run(["operator", "pin", "--hash"], monkeypatch, capsys, stdin="8642\n")
    assert code == 0 and "8642" not in out
    cfg = config.load_text(out, "k.toml")
    assert cfg.problems == [] and verify("8642", cfg.operator_pin)


def test_unlock_and_events_show_the_attempts(kiosk_dirs, monkeypatch, capsys):
    from kiosk.records.playlog import PlayLog

    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    cfg = config.load(path, env={})
    log = PlayLog(cfg.db_path(), min_free_mb=0)
    guard = guard_for(cfg.operator_pin, data, record=log.event)
    for _ in range(5):
        guard.check("1111")
    log.close()
    c = ["--config", str(path)]
    code, out, _ = run(["operator", "pin", "--show", *c], monkeypatch, capsys)
    assert code == 0 and "locked for 60 s" in out
    code, out, _ = run(["operator", "events", *c], monkeypatch, capsys)
    assert code == 0 and out.count("pin_wrong") == 5 and "pin_lockout" in out
    assert run(["operator", "events", "--limit", "0", *c], monkeypatch, capsys)[0] == 2
    assert run(["operator", "pin", "--unlock", *c], monkeypatch, capsys)[0] == 0
    assert not guard.locked() and guard.check("4711") == "ok"


def test_kiosk_run_reads_its_file_the_forgiving_way(kiosk_dirs):
    import argparse

    from kiosk.commands.app import load_config

    path, data = kiosk_dirs
    write_config(path, GOOD, data)
    args = argparse.Namespace(config=str(path))
    load_config(args)
    path.write_text(path.read_text() + "queen_on_king = yes\n")
    cfg, data_dir, _notes = load_config(args)
    assert cfg.broken_file == path and data_dir == data
    assert guard_for(cfg.operator_pin, data_dir).matches("4711")


def test_a_pin_file_that_cannot_be_read_is_never_replaced(kiosk_dirs, monkeypatch, capsys):
    path, data = kiosk_dirs
    write_config(path, "", data)
    PinStore(data).set("4711")
    before = (data / HASH_FILE).read_bytes()
    real = Path.read_bytes

    def denied(self):
        if self.name == HASH_FILE:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", denied)
    guard = guard_for(None, data)  # the kiosk: a PIN nobody knows, the file left alone
    assert not any(guard.matches(p) for p in printed_pins() | {"4711"})
    code, _out, err = run(["operator", "pin", "--show", "--config", str(path)], monkeypatch,
                          capsys)
    assert code == 2 and "Permission denied" in err and "sudo" in err
    monkeypatch.setattr(Path, "read_bytes", real)
    assert (data / HASH_FILE).read_bytes() == before
