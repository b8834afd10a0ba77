"""Issue 33 item 6 at the office and across the fleet, against the real PostgreSQL of the
fleet tests and a web server on 127.0.0.1: `kiosk fleet release` records a real signed
bundle's version, size and sha256; kiosk roles read only the release that reaches them and
write none; a staged rollout (canary, then the rest) halts on a rollback and goes on when
the office resumes; the heartbeat's system and update columns in `fleet status`.

RAUC itself does not run here (no slots on this machine): a kiosk's root side is played by
updates-img's own code with the slots stood in for (serve, reboot_into_update,
commit.settle), exactly as tests/updates/test_flow.py does."""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path

import psycopg
import pytest

from kiosk.commands.cli import main
from kiosk.fleet import central, heartbeat
from kiosk.updates import centre, commit, requests, serve
from kiosk.updates import status as status_mod
from kiosk.updates.reboot import reboot_into_update
from kiosk.updates.slots import Slots
from tests.updates.bundle_server import BundleServer, Faults

from .conftest import _db_numbers, assert_central_matches

V1 = "0.1.0+20251206.120000"
V2 = "0.1.0+20251207.090000"
ON_A = Slots("A", "A", "B", "", {"A": "good", "B": "bad"})
INSTALLED = Slots("A", "A", "B", "B", {"A": "good", "B": "bad"})
COMMITTED_B = Slots("B", "B", "A", "", {"A": "bad", "B": "good"})


@pytest.fixture(autouse=True)
def _unit(monkeypatch):
    monkeypatch.setattr(heartbeat, "unit_properties", lambda unit=None: {})


@pytest.fixture(scope="module")
def signed(tmp_path_factory) -> tuple[Path, Path, Path]:
    """A real signed bundle of V2 (image-build/bundle.sh), its keys and another office's."""
    from tests.updates.conftest import make_keys, small_bundle

    work = tmp_path_factory.mktemp("bundle")
    keys = make_keys(work / "keys", "Release tests")
    other = make_keys(work / "other", "Another office")
    return small_bundle(work / "kiosk-v2.raucb", V2, keys), keys, other


@pytest.fixture
def web(signed):
    s = BundleServer({"kiosk-v2.raucb": signed[0].read_bytes(), "junk.raucb": b"x" * 5000})
    yield s
    s.close()


def _kiosk_conn(k) -> psycopg.Connection:
    password = (k.data_dir / "fleet.secret").read_text().strip()
    return psycopg.connect(k.pg.dsn(k.dbname, k.role, password), autocommit=True)


def _with_updates(k) -> None:
    """The kiosk's [updates]: this machine's disk is not a card; keep 1 MB free."""
    with open(k.config, "a") as fh:
        fh.write("[updates]\nkeep_free_mb = 1\ndownload_minutes = 1\n")


def _rows(dsn: str, sql: str, *params) -> list[tuple]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(sql, params).fetchall()


# ------------------------------------------------------------------- the office's command
def test_a_release_records_the_bundle_fetched_once(fleet_dsn, web, signed, capsys):
    bundle = signed[0].read_bytes()
    url = web.url("kiosk-v2.raucb")
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--group", "canary"]) == 0
    out, err = capsys.readouterr()
    sha = hashlib.sha256(bundle).hexdigest()
    assert out == (f"release 1: version {V2} for group canary ({len(bundle):,} bytes, sha256 "
                   f"{sha}); the kiosks fetch it at their next sync\n")
    assert "no kiosk is in group 'canary' yet" in err
    assert _rows(fleet_dsn, "SELECT version, url, size, sha256, scope, target FROM releases"
                 ) == [(V2, url, len(bundle), sha, "group", "canary")]
    assert [s.status for s in web.log] == [200]
    # a local copy instead: nothing is fetched; given figures: nothing is read
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--file", str(signed[0])]) == 0
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--sha256", sha.upper(),
                 "--size", str(len(bundle)), "--version", V2]) == 0
    assert len(web.log) == 1
    assert _rows(fleet_dsn, "SELECT id, scope, sha256 = %s FROM releases ORDER BY id", sha
                 ) == [(1, "group", True), (2, "all", True), (3, "all", True)]
    # checked as a kiosk of the office's keyring would
    keys, other = signed[1], signed[2]
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--file", str(signed[0]),
                 "--keyring", str(keys / "ca.cert.pem")]) == 0
    capsys.readouterr()
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--file", str(signed[0]),
                 "--keyring", str(other / "ca.cert.pem")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not signed with a key this kiosk trusts" in err


@pytest.mark.parametrize("argv,says", [
    (["ftp://127.0.0.1/k.raucb"], "starts with http:// or https://"),
    (["URL", "--sha256", "xyz", "--size", "5", "--version", V2], "is not a sha256"),
    (["URL", "--size", "5"], "--sha256, --size and --version go together"),
    (["URL", "--sha256", "ab" * 32, "--size", "5", "--version", "2.0"],
     "is not a kiosk version"),
    (["URL", "--kiosk", "nobody"], "no kiosk named 'nobody'"),
    (["URL", "--group", "Bad Group"], "is not a group name"),
    (["WEB/gone.raucb"], "cannot fetch the bundle: "),
    (["WEB/junk.raucb"], "junk.raucb: it is not a RAUC bundle, or it is damaged"),
    (["URL", "--file", "/nonexistent.raucb"], "--file: no such file"),
    ([], "give the bundle's URL, or one of --list"),
    (["URL", "--list"], "give the bundle's URL, or one of --list"),
    (["--halt", "latest"], "is not a kiosk version"),
    (["--resume", V2, "--group", "canary"], "go with a bundle's URL"),
])
def test_what_is_refused_in_one_line(fleet_dsn, web, argv, says, capsys):
    argv = [a.replace("URL", web.url("kiosk-v2.raucb")).replace("WEB", web.base)
            for a in argv]
    assert main(["fleet", "release", *argv, "--dsn", fleet_dsn]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
    assert _rows(fleet_dsn, "SELECT count(*) FROM releases") == [(0,)]


# ------------------------------------------------------------------- least privilege
def _release(dsn: str, scope: str, target: str | None, version: str = V2) -> int:
    with psycopg.connect(dsn) as conn:
        return conn.execute(
            "INSERT INTO releases (version, url, size, sha256, scope, target) VALUES"
            " (%s, 'http://127.0.0.1:9/k.raucb', 1000, %s, %s, %s) RETURNING id",
            (version, "ab" * 32, scope, target)).fetchone()[0]


def _mine(k) -> list[tuple]:
    with _kiosk_conn(k) as conn:
        return conn.execute("SELECT id, version, scope, halted FROM fleet_my_release()"
                            ).fetchall()


def test_a_kiosk_reads_only_the_release_that_reaches_it_and_writes_none(
        make_kiosk, fleet_dsn, pg):
    canary, other = make_kiosk("canary-1"), make_kiosk("lobby-2")
    assert main(["fleet", "group", "canary-1", "canary", "--dsn", fleet_dsn]) == 0
    assert _mine(canary) == [] and _mine(other) == []
    g = _release(fleet_dsn, "group", "canary")
    assert _mine(canary) == [(g, V2, "group", False)] and _mine(other) == []
    k = _release(fleet_dsn, "kiosk", "lobby-2", V1)
    assert _mine(canary) == [(g, V2, "group", False)]
    assert _mine(other) == [(k, V1, "kiosk", False)]
    a = _release(fleet_dsn, "all", None)
    assert _mine(canary) == [(a, V2, "all", False)] == _mine(other)
    with _kiosk_conn(canary) as conn:
        for sql in ("SELECT * FROM releases", "SELECT * FROM release_halts",
                    "SELECT * FROM release_rollbacks",
                    "INSERT INTO releases (version, url, size, sha256, scope) VALUES "
                    f"('{V2}', 'http://x/y', 1, '{'cd' * 32}', 'all')",
                    "UPDATE releases SET url = 'http://evil/k.raucb'",
                    "DELETE FROM releases",
                    f"INSERT INTO release_halts (version, reason) VALUES ('{V1}', 'x')",
                    "UPDATE release_halts SET resumed = now()",
                    "INSERT INTO release_rollbacks (kiosk, version) VALUES ('lobby-2', 'x')",
                    "SELECT fleet_note_rollback()"):
            with pytest.raises(psycopg.Error) as err:
                conn.execute(sql)
            assert isinstance(err.value, psycopg.errors.InsufficientPrivilege | \
                              psycopg.errors.FeatureNotSupported), sql
    # the office's reporting role reads them, writes none
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        conn.execute("CREATE ROLE office_r LOGIN PASSWORD 'office-pw' IN ROLE fleet_report")
    dbname = psycopg.conninfo.conninfo_to_dict(fleet_dsn)["dbname"]
    with psycopg.connect(pg.dsn(dbname, "office_r", "office-pw"), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM releases").fetchone()[0] == 3
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"INSERT INTO release_halts (version, reason) VALUES ('{V2}', 'x')")
    # retired: nothing reaches it any more
    assert main(["fleet", "retire", "lobby-2", "--dsn", fleet_dsn]) == 0
    with psycopg.connect(fleet_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM fleet_my_release()").fetchone()[0] == 0


def _beat(k, **fields) -> None:
    """A heartbeat as a (possibly stolen) kiosk's role sends it: fleet_heartbeat()."""
    from psycopg.types.json import Jsonb

    with _kiosk_conn(k) as conn:
        conn.execute("SELECT fleet_heartbeat(%s)", (Jsonb({"sent": "x", **fields}),))


def test_a_rollback_halts_only_a_version_released_to_that_kiosk(make_kiosk, fleet_dsn):
    """A stolen card's heartbeat cannot halt a version that was never released to it, nor
    name another kiosk; one released to it, it can (the office sees which kiosk did)."""
    canary, thief = make_kiosk("canary-1"), make_kiosk("lobby-2")
    assert main(["fleet", "group", "canary-1", "canary", "--dsn", fleet_dsn]) == 0
    g = _release(fleet_dsn, "group", "canary")
    rolled = {"update_state": "rolled-back", "update_version": V2, "update_release": g,
              "update_message": "started but did not become healthy"}
    _beat(thief, **rolled)
    _beat(thief, **rolled, kiosk="canary-1")
    _beat(canary, **{**rolled, "update_version": V1})
    assert _rows(fleet_dsn, "SELECT count(*) FROM release_halts") == [(0,)]
    assert _rows(fleet_dsn, "SELECT kiosk, version, release_id FROM release_rollbacks"
                 " ORDER BY kiosk, version") == [
        ("canary-1", V1, g), ("lobby-2", V2, g)]
    _beat(canary, **rolled)
    _beat(canary, **rolled)  # every later heartbeat says the same: one rollback, one halt
    assert _rows(fleet_dsn, "SELECT version, kiosk, release_id, reason, resumed IS NULL"
                 " FROM release_halts") == [
        (V2, "canary-1", g, "started but did not become healthy", True)]
    assert _mine(canary) == [(g, V2, "group", True)]


# ------------------------------------------------------------------- a staged rollout
class Fleet:
    """Kiosks that sync for real, each with a system version and slot of its own (what
    /etc/os-release and the kernel command line would say on the image)."""

    def __init__(self, monkeypatch) -> None:
        self.now: dict[str, str | None] = {"version": V1, "slot": "A"}
        monkeypatch.setattr(centre, "running_version", lambda: self.now["version"])
        monkeypatch.setattr(centre, "booted_slot", lambda cmdline=None: self.now["slot"])

    def sync(self, k, version: str = V1, slot: str = "A") -> int:
        self.now.update(version=version, slot=slot)
        return k.sync()


def _root_side_installs(k) -> Path:
    """updates-img's root unit takes the pass's request: installs (RAUC stood in for:
    the status it writes) and records the restart into slot B."""
    bundles: list[Path] = []

    def install(bundle: Path, data_dir: Path, say=None):
        bundles.append(bundle)
        status_mod.save(data_dir, status_mod.UpdateStatus(
            "installed", message=f"{V2} is installed in slot B", bundle=str(bundle),
            version=V2, from_version=V1, slot="B", started=status_mod.now_iso()))

    assert serve.serve(k.data_dir, Path("/media/usb"), install_fn=install,
                       reboot_fn=lambda d: reboot_into_update(
                           d, describe=lambda: INSTALLED, run=lambda cmd: None),
                       wait=lambda *a, **kw: "quiet", say=lambda _l: None) == 0
    assert status_mod.load(k.data_dir).state == "rebooting"
    return bundles[0]


def _status(fleet_dsn: str, capsys, *extra: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["fleet", "status", "--dsn", fleet_dsn, *extra])
    return code, capsys.readouterr().out


def test_a_staged_rollout_halts_on_a_canary_rollback_and_goes_on_when_resumed(
        make_kiosk, fleet_dsn, web, signed, monkeypatch, capsys):
    fleet = Fleet(monkeypatch)
    canary, lobby2, lobby3 = (make_kiosk(n) for n in ("canary-1", "lobby-2", "lobby-3"))
    for k in (canary, lobby2, lobby3):
        _with_updates(k)
        k.play(2)
        assert fleet.sync(k) == 0
    assert main(["fleet", "group", "canary-1", "canary", "--dsn", fleet_dsn]) == 0
    url = web.url("kiosk-v2.raucb")
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--group", "canary"]) == 0
    fetched = len(web.log)

    # only the canary fetches it, and hands it to its root side
    assert fleet.sync(lobby2) == 0
    assert len(web.log) == fetched
    capsys.readouterr()
    assert fleet.sync(canary) == 0
    assert f"kiosk sync: update {V2}: handed" in capsys.readouterr().out
    assert len(web.log) == fetched + 1 and requests.pending(canary.data_dir)

    # ... which installs it, restarts "0 tryboot" and comes back on A: it did not start
    assert _root_side_installs(canary) == centre.bundle_path(canary.data_dir, V2)
    commit.settle(canary.data_dir, ON_A)
    assert fleet.sync(canary) == 0
    code, out = _status(fleet_dsn, capsys)
    assert code == 1
    assert out.splitlines()[0] == (
        f"RELEASE HALTED: {V2}: rolled back on canary-1: {V2} did not start (the firmware "
        f"started slot A again); {V1} runs; no kiosk installs it until `kiosk fleet release "
        f"--resume {V2}`")
    assert (f"    - rolled back (release 1 from the centre): {V2} did not start (the "
            f"firmware started slot A again); {V1} runs; when looked at: `kiosk fleet "
            f"release --resume {V2}`") in out.splitlines()
    assert f"system {V1} (slot A)" in out
    assert "  canary-1 [canary]: " in out and "NEEDS A PERSON (1 of 3 kiosks)" in out

    # the rest: released, but halted, so nobody fetches it
    assert main(["fleet", "release", url, "--dsn", fleet_dsn, "--file", str(signed[0])]) == 0
    assert f"version {V2} is halted" in capsys.readouterr().err
    for k in (lobby2, lobby3):
        assert fleet.sync(k) == 0
        assert centre.load(k.data_dir).state == "halted"
    assert len(web.log) == fetched + 1
    capsys.readouterr()
    assert main(["fleet", "release", "--list", "--dsn", fleet_dsn]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].startswith(f"HALTED {V2} since ") and "rolled back on canary-1 " \
        "(release 1)" in listing[0]
    assert listing[1].startswith(f"release 2: {V2} for all kiosks, ")
    assert listing[1].endswith("(HALTED): wanted by 3 kiosks: 0 run it, 1 ROLLED BACK, "
                               "2 not started")
    assert listing[2].endswith(": no kiosk wants it now (a newer release reaches them, or "
                               "none is in its group)")

    # the office looked and goes on
    capsys.readouterr()
    assert main(["fleet", "release", "--resume", V2, "--dsn", fleet_dsn]) == 0
    assert capsys.readouterr().out == (
        f"version {V2}: resumed; the kiosks it was released to fetch and install it again at "
        "their next sync; 1 rollback marked as seen (a kiosk that rolled back does not try it "
        "again unless released to it alone)\n")
    assert fleet.sync(canary) == 0   # not again here
    assert centre.load(canary.data_dir).state == "rolled-back"
    assert fleet.sync(lobby2) == 0
    assert len(web.log) == fetched + 2 and centre.load(lobby2.data_dir).state == "handed"
    code, out = _status(fleet_dsn, capsys)
    assert code == 0 and "RELEASE HALTED" not in out, out

    # lobby-2 installs, tries B, B is healthy and committed; it reports V2 on slot B
    _root_side_installs(lobby2)
    commit.settle(lobby2.data_dir, Slots("B", "A", "B", "", {"A": "good", "B": "bad"}))
    assert status_mod.load(lobby2.data_dir).state == "trying"
    commit.settle(lobby2.data_dir, COMMITTED_B)
    lobby2.play(1)
    assert fleet.sync(lobby2, version=V2, slot="B") == 0
    assert centre.load(lobby2.data_dir).state == "current"
    assert not centre.bundle_path(lobby2.data_dir, V2).exists()
    beat = _rows(fleet_dsn, "SELECT system_version, booted_slot, update_state, update_version,"
                 " update_release, download_state FROM heartbeats WHERE kiosk = 'lobby-2'"
                 " ORDER BY id DESC LIMIT 1")
    assert beat == [(V2, "B", "committed", V2, 2, "done")]
    code, out = _status(fleet_dsn, capsys)
    assert f"system {V2} (slot B)" in out and f"system {V1} (slot A)" in out
    capsys.readouterr()
    assert main(["fleet", "release", "--list", "--dsn", fleet_dsn]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(
        "wanted by 3 kiosks: 1 run it, 1 ROLLED BACK, 1 not started")
    assert_central_matches(fleet_dsn, [canary, lobby2, lobby3])


def test_the_play_log_goes_first_and_a_failed_pass_fetches_nothing(
        make_kiosk, fleet_dsn, web, monkeypatch, capsys):
    fleet = Fleet(monkeypatch)
    k = make_kiosk("lobby-1")
    _with_updates(k)
    k.play(5)
    assert main(["fleet", "release", web.url("kiosk-v2.raucb"), "--dsn", fleet_dsn,
                 "--sha256", "ab" * 32, "--size", "4096", "--version", V2]) == 0
    web.files.pop("kiosk-v2.raucb")
    capsys.readouterr()
    assert fleet.sync(k) == 0  # the download's 404 costs the download only
    out = capsys.readouterr().out
    assert "sent 5 plays" in out and "the server answered 404 Not Found" in out
    assert_central_matches(fleet_dsn, [k])
    requested = len(web.log)
    (k.data_dir / "fleet.secret").write_text("wrong\n")
    assert fleet.sync(k) == 1
    assert len(web.log) == requested


def test_one_download_at_a_time(make_kiosk, fleet_dsn, web, signed, monkeypatch, capsys):
    """A slow server: while one pass downloads, a second pass of the same kiosk leaves at
    once (the pass's lock); the download goes on."""
    fleet = Fleet(monkeypatch)
    k = make_kiosk("lobby-1")
    _with_updates(k)
    assert main(["fleet", "release", web.url("kiosk-v2.raucb"), "--dsn", fleet_dsn]) == 0
    web.faults = Faults(pause=0.5)
    before = len(web.log)  # the office's own fetch
    codes: list[int] = []
    first = threading.Thread(target=lambda: codes.append(fleet.sync(k)))
    first.start()
    deadline = time.monotonic() + 60
    while len(web.log) == before and time.monotonic() < deadline:
        time.sleep(0.05)
    capsys.readouterr()
    assert fleet.sync(k) == 0
    assert "another sync pass of this kiosk is running" in capsys.readouterr().out
    first.join(120)
    assert codes == [0] and len(web.log) == before + 1
    assert centre.load(k.data_dir).state == "handed"


# ------------------------------------------------------------------- schema
def test_the_migrations_leave_gaps_and_a_kiosk_needs_0011(pg, capsys):
    """The runner takes numbers with gaps (0009, 0010 belong to other work); a server
    without 0011 is refused by a kiosk and `fleet init` adds it."""
    versions = [m.version for m in central.migrations()]
    assert 11 in versions and central.SCHEMA_VERSION == max(versions)
    assert 11 in central.KIOSK_VERSIONS
    dsn = pg.create_database(f"gap{next(_db_numbers)}")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE fleet_schema_version (version integer PRIMARY KEY,"
                     " applied timestamptz NOT NULL DEFAULT now())")
        for m in central.migrations():
            if m.version < 11:
                with conn.transaction():
                    conn.execute(m.sql)
                    conn.execute("INSERT INTO fleet_schema_version (version) VALUES (%s)",
                                 (m.version,))
        with pytest.raises(central.FleetError) as err:
            central.check_version(conn)
        assert "run `kiosk fleet init`" in str(err.value)
    assert main(["fleet", "init", "--dsn", dsn]) == 0
    assert f"to {central.SCHEMA_VERSION}" in capsys.readouterr().out
    with psycopg.connect(dsn) as conn:
        central.check_version(conn)
        assert conn.execute("SELECT to_regprocedure('fleet_my_release()') IS NOT NULL"
                            ).fetchone()[0]


def test_a_renamed_kiosk_keeps_its_own_release(make_kiosk, fleet_dsn):
    k = make_kiosk("lobby-1")
    r = _release(fleet_dsn, "kiosk", "lobby-1")
    assert main(["fleet", "rename", "lobby-1", "hall-1", "--dsn", fleet_dsn]) == 0
    assert _mine(k) == [(r, V2, "kiosk", False)]
