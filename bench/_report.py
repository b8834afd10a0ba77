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


def last_section(title: str) -> str:
    """The current text of the ``## title`` section of docs/benchmarks.md, or ''."""
    if not DOC.exists():
        return ""
    text = DOC.read_text(encoding="utf-8")
    start = text.find(f"## {title}\n")
    if start < 0:
        return ""
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def notes_under_table(section: str) -> str:
    """The paragraphs under the last table of ``section``: written by hand, they survive a
    new run of the benchmark."""
    lines = section.splitlines()
    last = max((i for i, line in enumerate(lines) if line.startswith("|")), default=-1)
    return "\n".join(lines[last + 1:]).strip() if last >= 0 else ""
