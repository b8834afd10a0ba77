"""The report page at 7, 31 and 365 days of a realistic fleet (issue 32): 60 kiosks in 50
groups over two years, at lobby hours, with the unsynchronised clocks of real Pis
(tests/fleet/fleet_data.py), opened in headless Chromium. Each picture is checked for its
charts (the days' totals, the games, the hours, the matches: each chart's colour); with
``FLEET_REPORT_PICTURES=docs/screenshots`` they are kept as fleet-report-7.png, -31.png and
-365.png (the docs show them)."""

from __future__ import annotations

import csv
import os
from datetime import date, timedelta
from pathlib import Path

import psycopg
import pytest
from PIL import Image

from kiosk.commands.cli import main
from kiosk.fleet.report import charts

from . import fleet_data
from .test_report import colour_pixels, screenshot

LAST = date(2026, 6, 30)


@pytest.fixture(scope="module")
def fleet(pg):
    dsn = pg.create_database("fleet_screens")
    assert main(["fleet", "init", "--dsn", dsn]) == 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        counts = fleet_data.fill(conn, kiosks=60, days=760, plays_per_day=6,
                                 last_day=LAST.isoformat())
        conn.execute("VACUUM ANALYZE")
    return dsn, counts


@pytest.mark.slow
@pytest.mark.parametrize("days", [7, 31, 365])
def test_the_report_reads_well_at_each_length(fleet, tmp_path, capsys, days):
    dsn, counts = fleet
    out = tmp_path / "report.html"
    since = LAST - timedelta(days=days - 1)
    assert main(["fleet", "report", "--dsn", dsn, "--since", since.isoformat(), "--until",
                 LAST.isoformat(), "--tz", "Europe/Berlin", "--out", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text()
    assert page.count("<svg") == 4 and f"{days} days in the time zone Europe/Berlin" in page
    assert "made while the kiosk's clock was not synchronised" in page
    kiosks = list(csv.DictReader(open(tmp_path / "report-kiosks.csv")))
    assert len(kiosks) == 60 and all(int(k["plays"]) > 0 for k in kiosks)
    assert all(int(k["plays_before"]) > 0 for k in kiosks)
    png = tmp_path / "report.png"
    screenshot(out, png, tmp_path, height=2200)
    img = Image.open(png)
    tab10 = [tuple(round(255 * c) for c in rgb) for rgb in charts.PALETTE]
    for rgb in tab10[:4]:  # days and games, hours, win rates and visitors, the computer
        assert colour_pixels(img, rgb, tol=6) > 3000, rgb
    keep = os.environ.get("FLEET_REPORT_PICTURES")
    if keep:  # tools: FLEET_REPORT_PICTURES=docs/screenshots
        img.crop((0, 0, 1000, 1900)).save(Path(keep) / f"fleet-report-{days}.png")
