"""A problem the configuration checker found, as a value as well as a line.

``kiosk config check``, the logs and the fleet's heartbeat print a problem as the English
line they always had; the operator menu's Status page shows the same problem in the
operator's language. So a :class:`Problem` *is* that line (a ``str``: every caller that
prints, joins or compares it is unchanged) and carries the
:class:`~games.engine.reason.Reason` it was made from (a message id with its parameters,
the way the engine's refusals travel), which :func:`kiosk.i18n.translate` renders through
the catalogs. Parameters are what the file said (its path, a key, a quoted value) and stay
as written; the sentences around them are translated.

>>> p = Problem(Reason("{file}: {key}: unknown key; ignored", file="x.toml", key="colour"))
>>> p, p == "x.toml: colour: unknown key; ignored"
('x.toml: colour: unknown key; ignored', True)
"""

from __future__ import annotations

from typing import Any

from games.engine.reason import Reason


class Problem(str):
    """One line of ``config check``; :attr:`reason` is the same line as a value."""

    reason: Reason

    def __new__(cls, reason: Reason) -> Problem:
        self = super().__new__(cls, str(reason))
        self.reason = reason
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy and pickle make it from its value
        return (self.reason,)


def value_of(err: BaseException) -> Reason | str:
    """What an exception raised with a :class:`Reason` says, as that value; any other
    exception's one line."""
    arg = err.args[0] if len(err.args) == 1 else None
    return arg if isinstance(arg, Reason) else str(err)


def translatable(problem: Any) -> Reason | str:
    """What the Status page hands the translator: a problem's value, or a plain line (a
    note from elsewhere) that is looked up sentence by sentence."""
    return problem.reason if isinstance(problem, Problem) else str(problem)
