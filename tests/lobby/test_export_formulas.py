"""Issue 32: spreadsheet formulas behind look-alikes (``＝1+1``) and behind invisible or
filler characters (``=`` after U+034F, U+115F, U+3164 ...) got through the CSV export (84
of 567 cells tried). A generated table of such cells, each known by construction to be a
formula or not, goes through the exporter's CSV writer and is read back."""

from __future__ import annotations

import csv
import io
import itertools

from kiosk.records import export

#: what a spreadsheet shows as nothing before a cell's text: white space, format and
#: control characters, the Hangul fillers, combining marks with nothing to combine with
INVISIBLE = [
    "", " ", "\u00a0", "\u3000", "\n", "\u2028", "\u034f", "\u115f", "\u1160", "\u3164",
    "\uffa0", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\u2061",
    "\u2062", "\u2063", "\u2064", "\ufeff", "\u180e", "\u00ad", "\u2800", "\u17b4",
    "\ufe0f", "\u061c", "\u202e", "\u2066", "\U000e0001", "\u0301", "\u200b\u3164",
    " \u034f\u115f", "\ufeff\u00ad\u2060", "\x00", "\x1b",
]
#: the four starts of a formula and their look-alikes: full-width, small, superscript,
#: subscript forms (NFKC folds them), and the minus sign
STARTS = [
    "=", "\uff1d", "\ufe66", "\u207c", "\u208c",
    "+", "\uff0b", "\ufe62", "\u207a", "\u208a",
    "-", "\uff0d", "\ufe63", "\u207b", "\u208b", "\u2212",
    "@", "\uff20", "\ufe6b",
]
BODIES = ["1+1", 'HYPERLINK("http://example.org/x","Klondike")', "cmd|' /C calc'!A0",
          "SUM(A1:A9)"]
#: what the play log really holds and nobody must find changed: kiosk names in three
#: languages, game ids, moves, numbers as text, times
PLAIN = ["图书馆 Library", "Библиотека", "Hotel Lobby", "klondike", "T1>F1", "deal",
         "1=1", "a-b", "42", "3.5", "2026-03-01T10:00:00.120Z", "🂡 Lobby ⚑", "Ünïcödé",
         "游戏 = 好玩", "Гостиница «Заря»", "(=)"]


def cells() -> tuple[list[str], list[str]]:
    formulas = [pre + start + body for (pre, start), body in
                zip(itertools.product(INVISIBLE, STARTS), itertools.cycle(BODIES))]
    formulas += [c + body for c in ("\t", "\r", "\r\n") for body in BODIES]
    plain = [pre + text for pre, text in itertools.product(INVISIBLE, PLAIN)]
    return formulas, plain


def _through_csv(values: list[str]) -> list[str]:
    out = io.StringIO()
    columns = tuple(f"c{k}" for k in range(len(values)))
    export.write_rows(iter([dict(zip(columns, values, strict=True))]), columns, "csv", out)
    head, row = list(csv.reader(io.StringIO(out.getvalue())))
    assert head == list(columns)
    return row


def test_every_formula_look_alike_is_neutralised_and_plain_text_is_kept():
    formulas, plain = cells()
    assert len(formulas) + len(plain) >= 500
    got = _through_csv(formulas + plain)
    missed = [f for f, g in zip(formulas, got, strict=False) if g != "'" + f]
    changed = [p for p, g in zip(plain, got[len(formulas):], strict=True) if g != p]
    assert not missed, f"{len(missed)} of {len(formulas)} formulas got through: {missed[:5]!r}"
    assert not changed, f"{len(changed)} of {len(plain)} plain cells changed: {changed[:5]!r}"
    print(f"{len(formulas)} formula cells neutralised, {len(plain)} plain cells kept")


def test_the_cases_of_the_issue():
    for cell in ("\uff1d1+1", "\u034f=1+1", "\u115f=1+1", "\u3164=1+1"):
        assert export.safe_cell(cell) == "'" + cell
    # numbers stay numbers (a negative one too); text starting with "-" is prefixed as before
    assert export.safe_cell(-3) == -3 and export.safe_cell(-2.5) == -2.5
    assert export.safe_cell("-3") == "'-3"
