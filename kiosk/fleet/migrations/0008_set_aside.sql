-- Issue 32: a row the centre refuses no longer stops a kiosk. The kiosk sets it aside
-- (kept in its data directory, fleet-set-aside.json), sends an event `sync_set_aside`
-- with the reason, and goes on; its heartbeats carry how many rows it has set aside and
-- the last reason, and `kiosk fleet status` reports new ones since its last look.
ALTER TABLE heartbeats ADD COLUMN set_aside integer;
ALTER TABLE heartbeats ADD COLUMN set_aside_reason text;
ALTER TABLE status_looks ADD COLUMN set_aside integer;
