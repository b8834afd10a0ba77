-- Views a reporting tool reads directly (granted to fleet_report, never to the kiosks:
-- a view runs with its owner's rights and would show every kiosk's rows).
--
-- A Pi has no real-time clock: `started` is trusted only where clock_synced = 1. The
-- per-day view counts the others under day NULL rather than on a wrong day.

CREATE VIEW plays_per_day AS
SELECT kiosk,
       game,
       CASE WHEN clock_synced = 1 THEN left(started, 10)::date END AS day,
       count(*) AS plays,
       count(*) FILTER (WHERE result = 'won') AS won
FROM plays
WHERE demo = 0
GROUP BY kiosk, game, 3;

CREATE VIEW game_results AS
SELECT game,
       count(*) AS plays,
       count(*) FILTER (WHERE result = 'won') AS won,
       round(count(*) FILTER (WHERE result = 'won')::numeric
             / nullif(count(*) FILTER (WHERE result IN ('won', 'lost', 'abandoned')), 0), 4)
           AS win_rate,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY duration)
           FILTER (WHERE result IN ('won', 'lost', 'abandoned')) AS median_duration
FROM plays
WHERE demo = 0
GROUP BY game;

CREATE VIEW computer_matches AS
SELECT game,
       coalesce(level, '') AS level,
       count(*) AS matches,
       count(*) FILTER (WHERE winner = 'visitor') AS visitor_won,
       count(*) FILTER (WHERE winner LIKE 'computer%') AS computer_won,
       round(count(*) FILTER (WHERE winner = 'visitor')::numeric / count(*), 4)
           AS visitor_win_rate
FROM matches
GROUP BY game, coalesce(level, '');

GRANT SELECT ON plays_per_day, game_results, computer_matches TO fleet_report;
