-- kiosks: unaffected
-- (The line above tells kiosk/fleet/central.py that this migration changes nothing a kiosk
-- reads or writes: a kiosk keeps syncing with a server that has it and one that has not.)
--
-- Issue 32: the office's report reads a period of plays through indexes instead of scanning
-- all of `plays` (its old filters on `left(started, 10)` could use none). `started` is the
-- kiosk's UTC text ('2026-03-01T14:05:09.120Z'), compared byte by byte (COLLATE "C": the
-- database's own collation may order punctuation otherwise), so a period's bounds are two
-- such texts. The indexes hold only what the report trusts to a day (clock_synced = 1, no
-- demo) and carry the columns it counts, so they answer it alone (index-only scans).

-- a period of every kiosk
CREATE INDEX plays_report_started ON plays (started COLLATE "C")
    INCLUDE (kiosk, id, game, result, duration)
    WHERE demo = 0 AND clock_synced = 1;

-- a period of some kiosks (--kiosk, --group) and each kiosk's days
CREATE INDEX plays_report_kiosk_started ON plays (kiosk, started COLLATE "C")
    INCLUDE (id, game, result, duration)
    WHERE demo = 0 AND clock_synced = 1;

-- the plays of unsynchronised clocks, a few in a hundred, dated by the report from a later
-- play or a heartbeat of the same boot (kiosk/fleet/report/queries.py)
CREATE INDEX plays_unsynced ON plays (kiosk, id) INCLUDE (boot_id, started_mono)
    WHERE demo = 0 AND clock_synced IS DISTINCT FROM 1;
CREATE INDEX heartbeats_kiosk_boot ON heartbeats (kiosk, boot_id);

-- which migrations a kiosk must see applied: every one not marked unaffected (central.py)
ALTER TABLE fleet_schema_version ADD COLUMN IF NOT EXISTS kiosks boolean NOT NULL DEFAULT true;
