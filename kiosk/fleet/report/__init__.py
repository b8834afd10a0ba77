"""The office's view (``kiosk fleet report``): one self-contained HTML page with a period's
plays and the period before, the kiosks that need a person, charts of what is played where
and when, and the same tables as CSV files beside it.

The charts are drawn by matplotlib (the ``office`` extra; never installed on a kiosk) as
SVG inlined into the page, so the page opens in any browser, offline, and can be mailed as
one file. :mod:`.queries` reads the period through central migration 0010's indexes, in
the office's time zone, and dates the plays of unsynchronised clocks where their boot
allows; :mod:`.charts` draws; :mod:`.page` writes the page and the CSV files.
"""

from kiosk.fleet.report.charts import PALETTE
from kiosk.fleet.report.page import build

__all__ = ["PALETTE", "build"]
