"""Write one benchmark's results into its own section of docs/benchmarks.md."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = "# Benchmarks\n\nFigures of one machine, compared against itself over time. " \
         "Each section is rewritten by its script.\n"


def write_section(title: str, body: str) -> None:
    """Replace the ``## title`` section (up to the next ``## ``) or append it."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else HEADER
    section = f"## {title}\n\n{body.strip()}\n\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _m: section, text)
    else:
        text = text.rstrip() + "\n\n" + section
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text.rstrip() + "\n", encoding="utf-8")
