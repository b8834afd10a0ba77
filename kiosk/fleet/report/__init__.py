"""The office's view (``kiosk fleet report``): one self-contained HTML page with the kiosks
that need a person on top, charts of what is played where, and the same tables as CSV
files beside it.

The charts are drawn by matplotlib (the ``office`` extra; never installed on a kiosk) as
SVG inlined into the page, so the page opens in any browser, offline, and can be mailed as
one file. The queries are those of the part 1 views (``plays_per_day``, ``game_results``,
``computer_matches``) limited to the report's dates, so a reporting tool reading the views
directly gets the same numbers (docs/fleet.md).

Days and hours come only from plays whose kiosk clock was synchronised (``clock_synced =
1``); the hours are UTC, as the kiosks record them.
"""

from kiosk.fleet.report.charts import PALETTE
from kiosk.fleet.report.page import build

__all__ = ["PALETTE", "build"]
