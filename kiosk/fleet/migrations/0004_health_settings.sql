-- Part 2 (issue 27): the kiosks' heartbeats, their groups, and the settings the office
-- sends them (docs/fleet.md, "Health" and "Settings from the centre").

-- A kiosk belongs to at most one group (`kiosk fleet add-kiosk --group`, `fleet group`).
ALTER TABLE kiosks ADD COLUMN grp text CHECK (grp ~ '^[a-z0-9][a-z0-9_]{0,39}$');

-- One row per sync pass. `received` is the server's clock (a Pi has none of its own);
-- `sent` is the kiosk's, trusted only where clock_synced = 1.
CREATE TABLE heartbeats (
    id bigserial PRIMARY KEY,
    kiosk text NOT NULL REFERENCES kiosks (name),
    received timestamptz NOT NULL DEFAULT now(),
    sent text,
    clock_synced integer,
    app_version text,
    boot_id text,
    uptime double precision,              -- seconds since the kiosk booted
    last_play text,                       -- the kiosk's clock, as its play log has it
    data_free bigint,                     -- bytes free on the data partition
    data_size bigint,
    memory bigint,                        -- bytes, the kiosk unit's (systemd's MemoryCurrent)
    restarts integer,                     -- the kiosk unit's NRestarts (this boot)
    watchdog_kills integer,               -- of those, watchdog kills (this boot)
    config_problems text,                 -- the configuration's problems, one per line
    settings_version bigint,              -- the centre's version the kiosk has applied
    settings_rejected bigint,             -- the newest version it rejected (NULL: none)
    settings_error text,                  -- why
    log_status text,                      -- 'ok' or one line
    waiting integer,                      -- rows the centre has not confirmed, at the pass's start
    last_sync_ok text,                    -- the kiosk's clock: the end of its last good pass
    last_sync_error text
);
CREATE INDEX heartbeats_kiosk_received ON heartbeats (kiosk, received DESC);

ALTER TABLE heartbeats ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON heartbeats FOR INSERT TO fleet_kiosk
    WITH CHECK (kiosk = substr(current_user::text, 7));
CREATE POLICY report_reads ON heartbeats FOR SELECT TO fleet_report USING (true);
GRANT INSERT ON heartbeats TO fleet_kiosk;
GRANT USAGE ON SEQUENCE heartbeats_id_seq TO fleet_kiosk;
GRANT SELECT ON heartbeats TO fleet_report;

-- Versions of settings for all kiosks, a group or one kiosk (`kiosk fleet settings set`).
-- A kiosk's settings are the newest version of each of its three scopes, merged key by key
-- in the order all, group, kiosk (the narrower scope wins).
CREATE TABLE settings_versions (
    version bigserial PRIMARY KEY,
    scope text NOT NULL CHECK (scope IN ('all', 'group', 'kiosk')),
    target text CHECK ((scope = 'all') = (target IS NULL)),
    settings text NOT NULL,               -- the TOML the office gave, as given
    created timestamptz NOT NULL DEFAULT now(),
    created_by text NOT NULL DEFAULT current_user
);

CREATE VIEW settings_layers AS
SELECT k.name AS kiosk, s.version, s.scope, s.settings
FROM kiosks k
CROSS JOIN LATERAL (
    (SELECT 1 AS rank, * FROM settings_versions v
     WHERE v.scope = 'all' ORDER BY v.version DESC LIMIT 1)
    UNION ALL
    (SELECT 2, * FROM settings_versions v
     WHERE v.scope = 'group' AND v.target = k.grp ORDER BY v.version DESC LIMIT 1)
    UNION ALL
    (SELECT 3, * FROM settings_versions v
     WHERE v.scope = 'kiosk' AND v.target = k.name ORDER BY v.version DESC LIMIT 1)
) s;

-- What a kiosk reads: its own layers and nothing else. SECURITY DEFINER, keyed by
-- session_user (the kiosk's login role), so no kiosk reads the tables themselves.
CREATE FUNCTION fleet_my_settings()
RETURNS TABLE (version bigint, scope text, settings text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT l.version, l.scope, l.settings FROM settings_layers l
    WHERE l.kiosk = substr(session_user::text, 7)
      AND session_user::text LIKE 'kiosk\_%'
    ORDER BY CASE l.scope WHEN 'all' THEN 1 WHEN 'group' THEN 2 ELSE 3 END
$$;
REVOKE ALL ON FUNCTION fleet_my_settings() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_my_settings() TO fleet_kiosk;

GRANT SELECT ON settings_versions, settings_layers TO fleet_report;

-- `kiosk fleet status` remembers what it saw, so "restarted since the last look" means it.
CREATE TABLE status_looks (
    kiosk text PRIMARY KEY REFERENCES kiosks (name),
    looked timestamptz NOT NULL DEFAULT now(),
    boot_id text,
    restarts integer,
    watchdog_kills integer
);
-- the one table the office's reporting role writes: its own looks
GRANT SELECT, INSERT, UPDATE ON status_looks TO fleet_report;
