"""A fleet's central database at scale for bench/report.py and the report's screenshots
(tests/fleet/test_report_screens.py), made by SQL on the server
(nothing goes through Python row by row): kiosks in groups, a year and more of plays at
lobby hours, kiosks of different business, the plays of unsynchronised clocks a real fleet
has, matches against the computer and heartbeats.

The unsynchronised plays come in three kinds, as on real Pis: a boot whose clock was set by
NTP a while after it started (its first plays are unsynchronised, the later ones of the same
boot are not), a boot that never synchronised but sent a heartbeat (the server's clock),
and a boot that did neither (nothing can date its plays).
"""

from __future__ import annotations

from typing import Any

#: game ids and their share of plays (the well-known ones most played); the two against
#: the computer get matches
GAMES = [("klondike", 30), ("pyramid", 12), ("golf", 9), ("canfield", 6),
         ("scorpion", 5), ("eight_off", 4), ("la_belle_lucie", 4), ("aces_up", 4),
         ("clock", 4), ("gin_rummy", 6), ("draw_poker", 6), ("monte_carlo", 3),
         ("the_fan", 3)]

#: boots (a kiosk's day) whose first plays have an unsynchronised clock, in a hundred
UNSYNCED_BOOTS = 3


def fill(conn: Any, *, kiosks: int, days: int, plays_per_day: float, groups: int = 50,
         last_day: str = "2026-06-30") -> dict[str, int]:
    """Kiosks ``k0001``... in ``groups`` groups, ``days`` days of plays up to ``last_day``
    (UTC), ``plays_per_day`` on average per kiosk. Returns the row counts."""
    games = [(g, w) for g, w in GAMES if w]
    total = sum(w for _g, w in games)
    cases, acc = [], 0
    for g, w in games:
        acc += w
        cases.append(f"WHEN r_game < {acc / total:.6f} THEN '{g}'")
    game_expr = "CASE " + " ".join(cases[:-1]) + f" ELSE '{games[-1][0]}' END"
    slots = max(1, round(plays_per_day * 2))  # each kiosk fills 20 % to 80 % of its slots
    conn.execute("""
        INSERT INTO kiosks (name, role, grp)
        SELECT format('k%%s', lpad(i::text, 4, '0')), format('kiosk_k%%s', lpad(i::text, 4, '0')),
               format('g%%s', lpad((i %% %(groups)s)::text, 2, '0'))
        FROM generate_series(1, %(kiosks)s) i""", {"kiosks": kiosks, "groups": groups})
    conn.execute(f"""
        INSERT INTO plays (kiosk, id, kiosk_label, game, options, seed, demo, started,
                           started_mono, ended, ended_mono, boot_id, clock_synced, duration,
                           result, moves, undos, hints, score, cards_left, touches,
                           button_presses, app_version)
        SELECT kiosk, id, 'Lobby', game, '{{}}', id, 0,
               to_char(CASE WHEN unsynced THEN timestamp '2025-01-01' + make_interval(secs => mono)
                            ELSE at END, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               mono,
               to_char(CASE WHEN unsynced THEN timestamp '2025-01-01' + make_interval(secs => mono)
                            ELSE at END + make_interval(secs => duration),
                       'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               mono + duration, boot, CASE WHEN unsynced THEN 0 ELSE 1 END, duration,
               CASE WHEN r_result < 0.3 THEN 'won' WHEN r_result < 0.7 THEN 'lost'
                    WHEN r_result < 0.995 THEN 'abandoned' ELSE 'interrupted' END,
               (20 + 80 * r_result)::int, 2, 0, 100, 10, 60, 1, '0.9.0'
        FROM (
            SELECT format('k%%s', lpad(k::text, 4, '0')) AS kiosk,
                   d * {slots} + j AS id,
                   {game_expr} AS game,
                   at, extract(epoch FROM at - (day + interval '5 hours')) AS mono,
                   md5(k || '-' || d) AS boot,
                   -- a boot with an unsynchronised start: its first third of the day's
                   -- plays, or all of them (kinds 1 and 2: the clock never came)
                   (boot_kind >= 0 AND (boot_kind > 0 OR j <= {slots} / 3)) AS unsynced,
                   60 + 900 * r_dur * r_dur AS duration, r_result
            FROM generate_series(1, %(kiosks)s) k
            CROSS JOIN LATERAL (SELECT 0.2 + 0.6 * ((hashint4(k) & 1023) / 1023.0) AS rate) kr
            CROSS JOIN generate_series(0, %(days)s - 1) d
            CROSS JOIN LATERAL (
                SELECT (%(last_day)s::date - (%(days)s - 1) + d)::timestamp AS day,
                       CASE WHEN (hashint4(k * 100003 + d) & 1023) < {UNSYNCED_BOOTS} * 1023 / 100
                            THEN (hashint4(k * 7 + d) & 2147483647) %% 3 ELSE -1 END AS boot_kind
            ) bd
            CROSS JOIN generate_series(1, {slots}) j
            CROSS JOIN LATERAL (
                -- "+ 0 * (k + d + j)": one draw per play; a lateral subquery that names
                -- less of the play's row is computed once for all its plays, or its
                -- result kept for the same values (PostgreSQL's Memoize)
                SELECT random() + 0 * (k + d + j) AS r_keep,
                       random() + 0 * (k + d + j) AS r_game,
                       random() + 0 * (k + d + j) AS r_dur,
                       random() + 0 * (k + d + j) AS r_result,
                       random() + 0 * (k + d + j) AS r_min,
                       -- weekends are busier
                       CASE WHEN extract(isodow FROM bd.day) >= 6 THEN 1.3 ELSE 1.0 END AS week
            ) r
            CROSS JOIN LATERAL (
                SELECT bd.day + interval '6 hours'
                       + make_interval(secs => (j - 1 + r_min) * 14 * 3600.0 / {slots}) AS at
            ) t
            WHERE r_keep < kr.rate * r.week
        ) g""", {"kiosks": kiosks, "days": days, "last_day": last_day})
    conn.execute("""
        INSERT INTO matches (kiosk, play_id, game, winner, visitor_score, computer_score,
                             hands, level)
        SELECT kiosk, id, game,
               CASE WHEN random() < 0.45 THEN 'visitor' ELSE 'computer' END, 100, 80, 5,
               (ARRAY['easy', 'medium', 'hard'])[1 + (id % 3)]
        FROM plays WHERE game IN ('gin_rummy', 'draw_poker')""")
    # kind 1: a boot that never synchronised its clock but reached the centre: a heartbeat
    # three hours into it, with the server's time
    conn.execute("""
        INSERT INTO heartbeats (kiosk, received, boot_id, uptime, clock_synced, log_status,
                                waiting, restarts, watchdog_kills, data_free, data_size)
        SELECT DISTINCT ON (p.kiosk, p.boot_id) p.kiosk,
               (%(last_day)s::date - (%(days)s - 1) + ((p.id - 1) / %(slots)s)::int)::timestamp
                   + interval '8 hours',
               p.boot_id, 3 * 3600, 0, 'ok', 0, 0, 0, 3e9, 4e9
        FROM plays p
        WHERE p.clock_synced = 0
          AND NOT EXISTS (SELECT 1 FROM plays q WHERE q.kiosk = p.kiosk AND q.boot_id = p.boot_id
                          AND q.clock_synced = 1)
          AND (hashint4(hashtext(p.boot_id)) & 1) = 0""",
                 {"last_day": last_day, "days": days, "slots": slots})
    # every kiosk alive: its last heartbeat a minute ago
    conn.execute("""
        INSERT INTO heartbeats (kiosk, received, boot_id, uptime, clock_synced, log_status,
                                waiting, restarts, watchdog_kills, data_free, data_size)
        SELECT name, now() - interval '1 minute', 'now', 3600, 1, 'ok', 0, 0, 0, 3e9, 4e9
        FROM kiosks""")
    counts = {}
    for table in ("kiosks", "plays", "matches", "heartbeats"):
        counts[table] = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    counts["unsynced"] = conn.execute(
        "SELECT count(*) FROM plays WHERE clock_synced = 0").fetchone()[0]
    return counts
