"""The report's queries: what was played in a period, in the office's time zone, for every
kiosk or some, and the same for the period before.

**Through indexes.** A period is two bounds on ``started``, the kiosk's UTC text, compared
byte by byte (``COLLATE "C"``), so the partial indexes of central migration 0010 answer
each query alone (index-only scans): ``plays_report_started`` for the fleet,
``plays_report_kiosk_started`` for some kiosks and each kiosk's days. One scan of the
period gives the days, kiosks, games and hours at once (``GROUPING SETS``); the median
needs a second (an ordered-set aggregate per group is no good over grouping sets), the
matches against the computer a third, the period before a fourth (docs/benchmarks.md,
"Fleet report").

**Plays of unsynchronised clocks** (``clock_synced = 0``: a Pi has no real-time clock and
starts from its last saved time) are not trusted to a day, but they are not dropped
either. Within one boot the monotonic clock (``started_mono``, seconds since boot) is
right; a later play of the same boot whose clock was synchronised, or a heartbeat of the
same boot (``received`` is the server's clock, ``uptime`` the boot's seconds), gives that
boot's offset, and so the true time of each of its plays. A boot with neither cannot be
dated: its plays lie between the kiosk's synchronised plays before and after them (ids give
the true order); when both of those fall in the period, so do the plays (counted, on no
day); when the bracket only overlaps it, they are said, not counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

#: the computer's levels, easiest first (games/players)
LEVEL_ORDER = {"easy": 0, "medium": 1, "hard": 2}
#: results of a finished play (a win rate's denominator)
FINISHED = ("won", "lost", "abandoned")
#: up to this many kiosks the chart of days stacks them, each in its colour; a report of
#: more draws the days' totals (the kiosks table says which kiosk played how much)
TOP_KIOSKS = 10


class ReportInputError(ValueError):
    """A mistake in what the report was asked for (a time zone, a kiosk or a group the
    server does not know): one line, status 2."""


@dataclass(frozen=True)
class Period:
    """Whole days in the office's time zone, both ends included."""

    since: date
    until: date

    @property
    def days(self) -> int:
        return (self.until - self.since).days + 1

    def before(self) -> Period:
        """The period of the same length that ends the day before this one starts."""
        return Period(self.since - timedelta(days=self.days),
                      self.since - timedelta(days=1))

    def dates(self) -> list[date]:
        return [self.since + timedelta(days=n) for n in range(self.days)]

    def __str__(self) -> str:
        return f"{self.since.isoformat()} to {self.until.isoformat()}"


@dataclass
class Tally:
    """Plays counted together: how many, won, finished (won, lost or abandoned), and
    their play time in seconds (the monotonic clock's durations)."""

    plays: int = 0
    won: int = 0
    finished: int = 0
    seconds: float = 0.0

    @property
    def win_rate(self) -> float | None:
        return self.won / self.finished if self.finished else None

    def add(self, plays: int, won: int, finished: int, seconds: float | None) -> None:
        self.plays += int(plays)
        self.won += int(won)
        self.finished += int(finished)
        self.seconds += float(seconds or 0.0)


@dataclass
class Unclocked:
    """The plays of unsynchronised clocks that matter to the period."""

    #: dated from their boot's offset, placed on their day and hour
    dated: int = 0
    #: in the period for certain, the day unknown: counted, on no day
    undated: int = 0
    #: perhaps in the period (their bracket only overlaps it): not counted, said per kiosk
    maybe: dict[str, int] = field(default_factory=dict)


@dataclass
class PeriodData:
    period: Period
    total: Tally = field(default_factory=Tally)
    #: per day (the office's dates) and per hour of the day, the fleet's (or the scope's)
    days: dict[date, Tally] = field(default_factory=dict)
    hours: dict[int, Tally] = field(default_factory=dict)
    kiosks: dict[str, Tally] = field(default_factory=dict)
    games: dict[str, Tally] = field(default_factory=dict)
    #: median seconds of a finished play, per game and ("" ) over all
    medians: dict[str, float] = field(default_factory=dict)
    #: (game, level) -> (matches, visitor won, computer won)
    matches: dict[tuple[str, str], tuple[int, int, int]] = field(default_factory=dict)
    unclocked: Unclocked = field(default_factory=Unclocked)
    #: per kiosk: its plays in the period the day of which is unknown (in ``kiosks`` too)
    undated_by_kiosk: dict[str, int] = field(default_factory=dict)
    #: plays per day of each kiosk, when there are at most TOP_KIOSKS with plays (their
    #: own colours in the chart)
    top_days: dict[str, dict[date, int]] = field(default_factory=dict)


@dataclass
class Scope:
    """Which kiosks: ``names`` None for every kiosk; ``groups`` their groups by name."""

    names: tuple[str, ...] | None
    groups: dict[str, str | None]
    label: str

    def selected(self) -> list[str]:
        return sorted(self.groups) if self.names is None else list(self.names)


# ---------------------------------------------------------------------------- input
def time_zone(conn: Any, tz: str | None) -> str:
    """``tz`` when the server knows it (the name the office gave), else the server's own
    ``TimeZone``. Raises ReportInputError."""
    import psycopg

    if tz is None:
        return str(conn.execute("SHOW TimeZone").fetchone()[0])
    try:
        with conn.transaction():
            conn.execute("SELECT now() AT TIME ZONE %s", (tz,))
    except psycopg.errors.InvalidParameterValue:
        raise ReportInputError(f"--tz: {tz!r} is not a time zone the server knows (a name "
                               "such as Europe/Berlin, Asia/Shanghai or UTC)") from None
    return tz


def today(conn: Any, tz: str) -> date:
    day: date = conn.execute("SELECT (now() AT TIME ZONE %s)::date", (tz,)).fetchone()[0]
    return day


def scope(conn: Any, kiosks: list[str], groups: list[str]) -> Scope:
    """The kiosks asked for by name and by group; every kiosk when neither. Raises
    ReportInputError naming an unknown kiosk or a group without kiosks."""
    known: dict[str, str | None] = dict(conn.execute("SELECT name, grp FROM kiosks"))
    if not kiosks and not groups:
        return Scope(None, known, f"every kiosk ({_n(len(known), 'kiosk')})")
    unknown = [k for k in kiosks if k not in known]
    if unknown:
        raise ReportInputError(f"--kiosk: no kiosk named {unknown[0]!r} in the central "
                               "database (`kiosk fleet status` lists them)")
    names = set(kiosks)
    for g in groups:
        members = {k for k, grp in known.items() if grp == g}
        if not members:
            raise ReportInputError(f"--group: no kiosk is in group {g!r} (`kiosk fleet "
                                   "group NAME GROUP` puts one in)")
        names |= members
    parts = [f"group {g}" for g in groups] + [f"kiosk {k}" for k in kiosks]
    chosen = tuple(sorted(names))
    return Scope(chosen, {k: known[k] for k in chosen},
                 f"{', '.join(parts)} ({_n(len(chosen), 'kiosk')})")


def _n(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- the SQL
#: a play's start as the kiosk's text, bounded byte by byte: the indexes' order
_TRUSTED = ("demo = 0 AND clock_synced = 1 AND started COLLATE \"C\" >= %(lo)s"
            " AND started COLLATE \"C\" < %(hi)s")
_SOME = " AND kiosk = ANY(%(kiosks)s)"

#: the plays of the period: the trusted ones by their text, and those of unsynchronised
#: clocks the report dated (or knows to be in the period, ``at`` NULL), by key
PERIOD_PLAYS = f"""
SELECT kiosk, id, game, result, duration, started::timestamptz AS at
FROM plays WHERE {_TRUSTED}{{some}}
UNION ALL
SELECT p.kiosk, p.id, p.game, p.result, p.duration, x.at
FROM unnest(%(xk)s::text[], %(xi)s::bigint[], %(xa)s::timestamptz[]) AS x (kiosk, id, at)
JOIN plays p ON p.kiosk = x.kiosk AND p.id = x.id
"""

_COUNTS = ("count(*), count(*) FILTER (WHERE result = 'won'),"
           " count(*) FILTER (WHERE result IN ('won', 'lost', 'abandoned')),"
           " sum(duration)")

#: seconds of a bucket of the duration histogram the medians come from, and the last
#: bucket (two hours: longer plays share it)
BUCKET_S = 5
LAST_BUCKET = 1440

#: the period's plays with their local day and hour (the time zone's conversion done
#: once a play: OFFSET 0 keeps the planner from repeating it per use) and, for a finished
#: play, its duration's bucket
_LOCAL = f"""
SELECT kiosk, game, result, duration, local::date AS day,
       extract(hour FROM local)::int AS hour,
       CASE WHEN result IN ('won', 'lost', 'abandoned') AND duration IS NOT NULL
            THEN least(floor(duration / {BUCKET_S}), {LAST_BUCKET})::int END AS bucket
FROM (SELECT kiosk, game, result, duration, at AT TIME ZONE %(tz)s AS local
      FROM ({PERIOD_PLAYS}) pp OFFSET 0) l
"""

#: one scan: per day and kiosk (the CSV file, streamed; kiosks, days and the total are
#: their sums), per game, per hour and the durations' histogram per game (the medians);
#: few sets, since each costs a hash lookup a play
SUMMARY = f"""
SELECT GROUPING(day, kiosk, game, hour, bucket) AS g, day, kiosk, game, hour, bucket,
       {_COUNTS}
FROM ({_LOCAL}) q
GROUP BY GROUPING SETS ((day, kiosk), (game), (hour), (game, bucket))
"""


def _bits(columns: tuple[str, ...], grouped: tuple[str, ...]) -> int:
    """What ``GROUPING(columns...)`` gives for the set ``grouped``: a bit per column, the
    first the highest, set where the column is not grouped."""
    return sum(1 << (len(columns) - 1 - i) for i, c in enumerate(columns) if c not in grouped)


_S = ("day", "kiosk", "game", "hour", "bucket")
_DAY_KIOSK, _GAME, _HOUR, _HISTOGRAM = (
    _bits(_S, ("day", "kiosk")), _bits(_S, ("game",)), _bits(_S, ("hour",)),
    _bits(_S, ("game", "bucket")))

#: the period before: per day and kiosk, and per game (``g`` as in SUMMARY: the two
#: columns it does not group, its lowest two bits, set)
BEFORE = f"""
SELECT GROUPING(day, kiosk, game) * 4 + 3 AS g, day, kiosk, game, NULL::int, NULL::int,
       {_COUNTS}
FROM ({_LOCAL}) q
GROUP BY GROUPING SETS ((day, kiosk), (game))
"""

#: the matches of the period's plays of the given games (those against the computer): a
#: look-up by key per such play (OFFSET 0 keeps it one; the game is tested inside it, so
#: the period is still read through its index), so the cost follows the period, not the
#: whole ``matches`` table a hash join would read
MATCHES = f"""
SELECT m.game, coalesce(m.level, ''), count(*),
       count(*) FILTER (WHERE m.winner = 'visitor'),
       count(*) FILTER (WHERE m.winner LIKE 'computer%%')
FROM ({PERIOD_PLAYS}) pp
CROSS JOIN LATERAL (SELECT * FROM matches m WHERE m.kiosk = pp.kiosk AND m.play_id = pp.id
                      AND pp.game = ANY(%(seated)s) OFFSET 0) m
GROUP BY 1, 2
"""


def seated(game_ids: list[str]) -> list[str]:
    """Of ``game_ids``, those that may have matches: the games against the computer, and
    any game this software does not know (a newer kiosk's)."""
    import games

    known = set(games.ids())
    return sorted(g for g in game_ids if g not in known or games.listed(g).seated)


#: the top kiosks' days (a few kiosks: their index)
KIOSK_DAYS = f"""
SELECT (at AT TIME ZONE %(tz)s)::date AS day, kiosk, count(*)
FROM ({PERIOD_PLAYS}) pp WHERE at IS NOT NULL
GROUP BY 1, 2
"""

#: every unsynchronised play of the kiosks, with the time its boot gives it (NULL: none)
#: and the kiosk's synchronised plays before and after its boot's unsynchronised ones;
#: kept when it may concern [lo, hi)
UNCLOCKED = """
WITH edges AS MATERIALIZED (
    -- a kiosk's ids grow with time: its unsynchronised plays of [lo, hi) lie between its
    -- last synchronised play before lo and its first one from hi on (per-kiosk index)
    SELECT k.name AS kiosk,
           (SELECT p.id FROM plays p WHERE p.kiosk = k.name AND p.demo = 0
              AND p.clock_synced = 1 AND p.started COLLATE "C" < %(lo)s
            ORDER BY p.started COLLATE "C" DESC LIMIT 1) AS id_lo,
           (SELECT p.id FROM plays p WHERE p.kiosk = k.name AND p.demo = 0
              AND p.clock_synced = 1 AND p.started COLLATE "C" >= %(hi)s
            ORDER BY p.started COLLATE "C" LIMIT 1) AS id_hi
    FROM kiosks k WHERE true {some_k}
), boots AS MATERIALIZED (
    SELECT p.kiosk, p.boot_id, min(p.id) AS first_id, max(p.id) AS last_id,
           min(p.started_mono) AS first_mono, max(p.started_mono) AS last_mono
    FROM edges e
    JOIN plays p ON p.kiosk = e.kiosk AND p.id > coalesce(e.id_lo, -1)
     AND p.id < coalesce(e.id_hi, 9223372036854775807)
    WHERE p.demo = 0 AND p.clock_synced IS DISTINCT FROM 1
    GROUP BY p.kiosk, p.boot_id
), clocked AS MATERIALIZED (
    -- once per boot: its offset (a later synchronised play of the boot, else a heartbeat
    -- of it), and the kiosk's synchronised plays before and after its unsynchronised ones
    SELECT b.kiosk, b.boot_id, b.first_id, b.last_id, b.first_mono, b.last_mono,
           coalesce(CASE WHEN nx.boot_id = b.boot_id AND nx.clock_synced = 1
                         THEN extract(epoch FROM nx.started::timestamptz) - nx.started_mono END,
                    hb.offset_s) AS offset_s,
           pv.started::timestamptz AS after, nd.started::timestamptz AS before
    FROM boots b
    LEFT JOIN LATERAL (
        SELECT p.boot_id, p.clock_synced, p.started, p.started_mono FROM plays p
        WHERE p.kiosk = b.kiosk AND p.id > b.last_id ORDER BY p.id LIMIT 1) nx ON true
    LEFT JOIN LATERAL (
        SELECT extract(epoch FROM h.received) - h.uptime AS offset_s FROM heartbeats h
        WHERE h.kiosk = b.kiosk AND h.boot_id = b.boot_id AND h.uptime IS NOT NULL
        ORDER BY h.received LIMIT 1) hb ON true
    LEFT JOIN LATERAL (
        SELECT p.started FROM plays p WHERE p.kiosk = b.kiosk AND p.id < b.first_id
          AND p.clock_synced = 1 AND p.demo = 0 ORDER BY p.id DESC LIMIT 1) pv ON true
    LEFT JOIN LATERAL (
        SELECT p.started FROM plays p WHERE p.kiosk = b.kiosk AND p.id > b.last_id
          AND p.clock_synced = 1 AND p.demo = 0 ORDER BY p.id LIMIT 1) nd ON true
), near AS (
    -- the boots that may concern [lo, hi): dated ones whose plays span into it, the
    -- others whose bracket overlaps it
    SELECT * FROM clocked
    WHERE CASE WHEN offset_s IS NOT NULL
               THEN to_timestamp(offset_s + first_mono) < %(hi_ts)s
                    AND to_timestamp(offset_s + last_mono) >= %(lo_ts)s
               ELSE coalesce(after < %(hi_ts)s, true) AND coalesce(before >= %(lo_ts)s, true)
          END
)
SELECT kiosk, id, at, after, before FROM (
    SELECT p.kiosk, p.id,
           CASE WHEN c.offset_s IS NOT NULL AND p.started_mono IS NOT NULL
                THEN to_timestamp(c.offset_s + p.started_mono) END AS at,
           c.after, c.before
    FROM near c
    JOIN plays p ON p.kiosk = c.kiosk AND p.boot_id IS NOT DISTINCT FROM c.boot_id
     AND p.id BETWEEN c.first_id AND c.last_id
    WHERE p.demo = 0 AND p.clock_synced IS DISTINCT FROM 1
) u
WHERE CASE WHEN at IS NOT NULL THEN at >= %(lo_ts)s AND at < %(hi_ts)s
           ELSE coalesce(after < %(hi_ts)s, true) AND coalesce(before >= %(lo_ts)s, true) END
"""


# ---------------------------------------------------------------------------- running
@dataclass(frozen=True)
class Bounds:
    lo: datetime
    hi: datetime

    @property
    def params(self) -> dict[str, Any]:
        return {"lo": _text(self.lo), "hi": _text(self.hi), "lo_ts": self.lo,
                "hi_ts": self.hi}


def _text(moment: datetime) -> str:
    """The kiosk's own format of a UTC time (``kiosk.records.playlog.iso``), with its
    milliseconds, so that byte order is time order against every stored value."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{moment.microsecond // 1000:03d}Z"


def bounds(conn: Any, period: Period, tz: str) -> Bounds:
    """The period's first and last instants (the office's midnights) as the server sees
    them: a day of a change to or from summer time has 23 or 25 hours."""
    lo, hi = conn.execute("SELECT %s::timestamp AT TIME ZONE %s, %s::timestamp AT TIME ZONE %s",
                          (period.since, tz, period.until + timedelta(days=1), tz)).fetchone()
    return Bounds(lo, hi)


@dataclass
class Extra:
    """Unsynchronised plays the report places in a period (``at`` None: on no day)."""

    kiosks: list[str] = field(default_factory=list)
    ids: list[int] = field(default_factory=list)
    ats: list[datetime | None] = field(default_factory=list)

    def params(self) -> dict[str, Any]:
        return {"xk": self.kiosks, "xi": self.ids, "xa": self.ats}

    def only(self, names: set[str]) -> Extra:
        keep = [i for i, k in enumerate(self.kiosks) if k in names]
        return Extra([self.kiosks[i] for i in keep], [self.ids[i] for i in keep],
                      [self.ats[i] for i in keep])


def unclocked(conn: Any, sc: Scope, b: Bounds, now: datetime) -> tuple[Extra, Unclocked]:
    """The unsynchronised plays that belong to the period, and how many of which kind."""
    some = " AND k.name = ANY(%(kiosks)s)" if sc.names is not None else ""
    rows = conn.execute(UNCLOCKED.format(some_k=some),
                        {**b.params, "kiosks": list(sc.names or ())}).fetchall()
    extra, info = Extra(), Unclocked()
    maybe: dict[str, int] = defaultdict(int)
    for kiosk, pid, at, after, before in rows:
        if at is None and not (after is not None and after >= b.lo
                               and (before or now) < b.hi):
            maybe[kiosk] += 1
            continue
        extra.kiosks.append(kiosk)
        extra.ids.append(pid)
        extra.ats.append(at)
        if at is None:
            info.undated += 1
        else:
            info.dated += 1
    info.maybe = dict(sorted(maybe.items()))
    return extra, info


def query_params(sc: Scope, b: Bounds, tz: str, extra: Extra) -> dict[str, Any]:
    """The parameters of the period's queries (bench/report.py and the tests EXPLAIN them)."""
    return {**b.params, "tz": tz, "kiosks": list(sc.names or ()), **extra.params()}


def kiosk_filter(sc: Scope) -> str:
    """What the period's queries' ``{some}`` becomes: nothing for every kiosk."""
    return _SOME if sc.names is not None else ""


def _read(data: PeriodData, rows: Any,
          day_rows: Callable[[date, str, int, int], None] | None) -> None:
    """Fill ``data`` from SUMMARY's or BEFORE's rows."""
    histograms: dict[str, dict[int, int]] = {}
    for g, day, kiosk, game, hour, bucket, n, won, fin, secs in rows:
        if g == _DAY_KIOSK:
            data.kiosks.setdefault(kiosk, Tally()).add(n, won, fin, secs)
            data.total.add(n, won, fin, secs)
            if day is None:
                data.undated_by_kiosk[kiosk] = data.undated_by_kiosk.get(kiosk, 0) + n
                continue
            data.days.setdefault(day, Tally()).add(n, won, fin, secs)
            if day_rows is not None:
                day_rows(day, kiosk, n, won)
        elif g == _GAME:
            data.games.setdefault(game, Tally()).add(n, won, fin, secs)
        elif g == _HOUR:
            if hour is not None:
                data.hours.setdefault(int(hour), Tally()).add(n, won, fin, secs)
        elif g == _HISTOGRAM and bucket is not None:
            histograms.setdefault(game, {})[int(bucket)] = int(n)
    every: dict[int, int] = {}
    for game, h in histograms.items():
        data.medians[game] = median(h)
        for k, n in h.items():
            every[k] = every.get(k, 0) + n
    if every:
        data.medians[""] = median(every)


def median(histogram: dict[int, int]) -> float:
    """The median seconds of a duration histogram (:data:`BUCKET_S` buckets), taken
    between the bucket's edges as if its plays were spread evenly: within a few seconds
    of the exact one."""
    total = sum(histogram.values())
    half = total / 2
    seen = 0
    for k in sorted(histogram):
        n = histogram[k]
        if seen + n >= half:
            return BUCKET_S * (k + (half - seen) / n)
        seen += n
    return BUCKET_S * max(histogram)


def collect(conn: Any, period: Period, sc: Scope, tz: str,
            day_rows: Callable[[date, str, int, int], None] | None = None) -> PeriodData:
    """Everything the page shows of ``period``; ``day_rows(day, kiosk, plays, won)`` gets
    the per day and kiosk rows as they come (for the CSV file: a year of 5,000 kiosks is
    1.8 million of them, never held in memory)."""
    b = bounds(conn, period, tz)
    now = conn.execute("SELECT now()").fetchone()[0]
    extra, info = unclocked(conn, sc, b, now)
    params = query_params(sc, b, tz, extra)
    some = kiosk_filter(sc)
    data = PeriodData(period, unclocked=info)
    _read(data, conn.execute(SUMMARY.format(some=some), params), day_rows)
    with_matches = seated(list(data.games))
    if with_matches:
        for game, level, n, visitor, computer in conn.execute(
                MATCHES.format(some=some), {**params, "seated": with_matches}):
            data.matches[(game, level)] = (n, visitor, computer)
    top = [k for k, t in sorted(data.kiosks.items(), key=lambda kt: (-kt[1].plays, kt[0]))
           if t.plays]
    if 0 < len(top) <= TOP_KIOSKS:
        data.top_days = {k: {} for k in top}
        one = Scope(tuple(top), {}, "")
        for day, kiosk, n in conn.execute(KIOSK_DAYS.format(some=_SOME),
                                          query_params(one, b, tz, extra.only(set(top)))):
            data.top_days[kiosk][day] = int(n)
    return data


def collect_before(conn: Any, period: Period, sc: Scope, tz: str) -> PeriodData:
    """The period before: totals per kiosk, game and day, for comparison."""
    b = bounds(conn, period, tz)
    now = conn.execute("SELECT now()").fetchone()[0]
    extra, info = unclocked(conn, sc, b, now)
    data = PeriodData(period, unclocked=info)
    _read(data, conn.execute(BEFORE.format(some=kiosk_filter(sc)), query_params(sc, b, tz, extra)), None)
    return data
