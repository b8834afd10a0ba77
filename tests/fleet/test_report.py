"""The office's report (issues 27 and 32): built from a central database of a few simulated
kiosks and weeks of plays, opened in headless Chromium, and the screenshot checked for its
charts (their colours, where the page puts them); its input mistakes."""

from __future__ import annotations

import csv
import os
import random
import re
import shutil
import subprocess
from datetime import date, timedelta
from pathlib import Path

import psycopg
import pytest
from PIL import Image

from kiosk.commands.cli import main
from kiosk.fleet import central, report

KIOSKS = ("hotel_lobby", "clinic", "library", "senior_centre")
GAMES = ("klondike", "pyramid", "golf", "draw_poker", "gin_rummy", "spider_free")
DAYS = 28
FIRST = date(2026, 3, 2)
LAST = FIRST + timedelta(days=DAYS - 1)


def fill(dsn: str, seed: int = 7) -> int:
    """Four kiosks, four weeks of plays at lobby hours, matches against the computer."""
    rnd = random.Random(seed)
    n = 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        for name in KIOSKS:
            central.add_kiosk(conn, name)
        plays, matches = [], []
        for k, name in enumerate(KIOSKS):
            pid = 0
            for d in range(DAYS):
                day = FIRST + timedelta(days=d)
                for _ in range(rnd.randint(5, 25 + 10 * k)):
                    pid += 1
                    game = rnd.choices(GAMES[:5], weights=(8, 4, 3, 2, 2))[0]
                    hour = min(21, max(7, int(rnd.gauss(14, 3))))
                    started = f"{day.isoformat()}T{hour:02d}:{rnd.randint(0, 59):02d}:00Z"
                    result = rnd.choices(("won", "lost", "abandoned"), (3, 4, 3))[0]
                    plays.append((name, pid, game, started, 1, 0, result,
                                  rnd.uniform(60, 900)))
                    if game in ("draw_poker", "gin_rummy"):
                        level = rnd.choice(("easy", "medium", "hard"))
                        winner = "visitor" if rnd.random() < {"easy": .7, "medium": .5,
                                                              "hard": .3}[level] else "computer"
                        matches.append((name, pid, game, winner, level))
            n += pid
        # a play of an unsynchronised clock and a demo: never in the dated charts
        plays.append(("clinic", 10_000, "klondike", "1970-01-01T00:01:00Z", 0, 0, "won", 60))
        plays.append(("clinic", 10_001, "klondike", f"{FIRST}T10:00:00Z", 1, 1, "won", 60))
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO plays (kiosk, id, game, started, clock_synced, demo, result,"
                " duration) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", plays)
            cur.executemany("INSERT INTO matches (kiosk, play_id, game, winner, level)"
                            " VALUES (%s, %s, %s, %s, %s)", matches)
            # heartbeats: one kiosk silent for a day, the others just now
            for name in KIOSKS:
                cur.execute(
                    "INSERT INTO heartbeats (kiosk, received, app_version, boot_id, uptime,"
                    " data_free, data_size, restarts, watchdog_kills, log_status, waiting)"
                    " VALUES (%s, now() - %s::interval, '0.1.0', 'b', 3600, 3e9, 4e9, 0, 0,"
                    " 'ok', 0)", (name, "1 day" if name == "library" else "1 minute"))
    return n


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("Chromium is not installed: run `tools/install.sh test` (Debian package "
                    "chromium)")
    return found


def screenshot(page: Path, png: Path, tmp_path: Path, width: int = 1000,
               height: int = 3000) -> None:
    """Headless Chromium, as root in a container needs it, with nothing of its own on the
    network (the page is self-contained: no request would succeed anyway)."""
    profile = tmp_path / "chromium-profile"
    args = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--no-first-run", "--disable-component-update",
            "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
            f"--user-data-dir={profile}", f"--window-size={width},{height}",
            f"--screenshot={png}", page.as_uri()]
    done = subprocess.run(args, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert png.is_file(), done.stderr[-2000:]


def colour_pixels(img: Image.Image, rgb: tuple[int, int, int], tol: int = 12) -> int:
    r0, g0, b0 = rgb
    data = img.convert("RGB").tobytes()
    data = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for r, g, b in data if abs(r - r0) <= tol and abs(g - g0) <= tol
               and abs(b - b0) <= tol)


def test_the_report_renders_in_a_browser_with_its_charts(fleet_dsn, tmp_path, capsys):
    plays = fill(fleet_dsn)
    out = tmp_path / "report.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", FIRST.isoformat(),
                 "--until", LAST.isoformat(), "--tz", "UTC", "--out", str(out)]) == 0
    assert "report written" in capsys.readouterr().out
    page = out.read_text()
    # self-contained: no script, no stylesheet or image fetched from anywhere
    for fetches in ("<script", "<link", "<img", "<iframe", "src=", 'href="http',
                    "xlink:href=\"http", "@import"):
        assert fetches not in page, fetches
    assert not re.search(r"url\((?!#)", page)  # only the SVGs' own clip paths
    assert page.count("<svg") == 4
    # the kiosk silent for a day is on top, before the first chart
    assert page.index('id="health"') < page.index('id="chart-days"')
    assert "library" in page[page.index('id="health"'):page.index('id="chart-days"')]
    # the CSV tables beside it hold the plays the charts count
    per_day = list(csv.DictReader(open(tmp_path / "report-plays-per-day.csv")))
    assert sum(int(r["plays"]) for r in per_day) == plays  # no demo, no unsynced clock
    assert {r["kiosk"] for r in per_day} == set(KIOSKS)
    assert len({r["day"] for r in per_day}) == DAYS
    games = {r["game"]: r for r in csv.DictReader(open(tmp_path / "report-games.csv"))}
    assert games["klondike"]["name"] == "Klondike" and 0 < float(
        games["klondike"]["win_rate"]) < 1
    levels = list(csv.DictReader(open(tmp_path / "report-computer-matches.csv")))
    assert [r["level"] for r in levels[:3]] == ["easy", "medium", "hard"]
    # per kiosk: its plays and its play time, as the central rows have them
    kiosks = {r["kiosk"]: r for r in csv.DictReader(open(tmp_path / "report-kiosks.csv"))}
    with psycopg.connect(fleet_dsn) as conn:
        expect = dict((k, (n, s)) for k, n, s in conn.execute(
            "SELECT kiosk, count(*), sum(duration) FROM plays WHERE demo = 0"
            " AND clock_synced = 1 GROUP BY kiosk"))
    for name, (n, seconds) in expect.items():
        assert int(kiosks[name]["plays"]) == n
        assert float(kiosks[name]["play_hours"]) == pytest.approx(seconds / 3600, abs=0.06)
    assert sum(int(r["plays"]) for r in kiosks.values()) == plays
    # the unsynchronised play is said, not dropped without a word
    assert "1 play was made while the kiosk's clock was not synchronised" in page
    assert kiosks["clinic"]["perhaps_not_counted"] == "1"

    png = tmp_path / "report.png"
    screenshot(out, png, tmp_path)
    img = Image.open(png)
    assert img.size == (1000, 3000)
    # each chart's own colour is on the screen in quantity: the bars were drawn
    tab10 = [tuple(round(255 * c) for c in rgb) for rgb in report.PALETTE]
    for name, rgb in (("kiosk 1 / most played", tab10[0]), ("hours", tab10[1]),
                      ("win rates / visitor won", tab10[2]), ("computer won", tab10[3])):
        assert colour_pixels(img, rgb) > 2000, name
    # the red "needs a person" box is at the top of the page, above the charts
    top = img.crop((0, 0, 1000, 400))
    assert colour_pixels(top, (0xfd, 0xec, 0xea), tol=4) > 5000
    keep = os.environ.get("FLEET_REPORT_PICTURE")
    if keep:  # tools: FLEET_REPORT_PICTURE=docs/screenshots/fleet-report.png
        img.crop((0, 0, 1000, 1620)).save(keep)  # the health box and the four charts


@pytest.mark.parametrize("args, says", [
    (["--since", "last week"], "'last week' is not a date (YYYY-MM-DD)"),
    (["--until", "2026-02-30"], "'2026-02-30' is not a date"),
    (["--since", "2026-03-10", "--until", "2026-03-01"],
     "--until 2026-03-01 is before --since 2026-03-10"),
    (["--tz", "Mars/Olympus_Mons"], "--tz: 'Mars/Olympus_Mons' is not a time zone the "
                                    "server knows"),
    (["--tz", " "], "--tz: empty"),
    (["--kiosk", "nowhere"], "--kiosk: no kiosk named 'nowhere'"),
    (["--kiosk", "Bad Name"], "'Bad Name' is not a kiosk name"),
    (["--group", "nobody"], "--group: no kiosk is in group 'nobody'"),
    (["--out", "/nonexistent/dir/r.html"], "--out: no directory /nonexistent/dir"),
])
def test_report_input_mistakes_are_status_2(fleet_dsn, tmp_path, capsys, args, says):
    with psycopg.connect(fleet_dsn, autocommit=True) as conn:
        central.add_kiosk(conn, "lobby")
    argv = ["fleet", "report", "--dsn", fleet_dsn, "--out", str(tmp_path / "r.html"), *args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.html").exists()


def test_an_empty_fleet_still_gives_a_page(fleet_dsn, tmp_path, capsys):
    out = tmp_path / "empty.html"
    assert main(["fleet", "report", "--dsn", fleet_dsn, "--since", "2026-01-01",
                 "--out", str(out)]) == 0
    page = out.read_text()
    assert page.count("<svg") == 4 and "no plays in this period" in page
