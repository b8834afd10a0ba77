"""Where the shipped assets are: inside the installed package, or beside it in a checkout.

The wheel carries ``assets/`` as ``kiosk/assets`` (see pyproject.toml); a source checkout has
it at the top of the repository. Looking in both keeps one layout for developers and the Pi.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _find_assets() -> Path:
    for candidate in (_HERE / "assets", _HERE.parent / "assets"):
        if (candidate / "fonts").is_dir():
            return candidate
    return _HERE.parent / "assets"


ASSETS: Path = _find_assets()
