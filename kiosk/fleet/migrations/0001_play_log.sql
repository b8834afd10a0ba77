-- The central play log: the kiosk's own tables (kiosk/records/playlog.py) with a `kiosk`
-- column in every key, so that the same row sent twice is one row. Run by
-- `kiosk fleet init` inside one transaction, recorded in fleet_schema_version.
--
-- Kiosks log in as their own role, `kiosk_<name>`, a member of fleet_kiosk. Row-level
-- security ties every row to that name: a kiosk may insert and update its own rows (the
-- upsert needs to see them, so it may read its own rows too), reads nothing of the others',
-- and deletes nothing, its own rows included (no DELETE privilege at all).

-- (IF NOT EXISTS: `fleet init` makes this table first, to lock it: see central.migrate)
CREATE TABLE IF NOT EXISTS fleet_schema_version (
    version integer PRIMARY KEY,
    applied timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE kiosks (
    name text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_]{0,39}$'),
    role name NOT NULL UNIQUE,
    added timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE plays (
    kiosk text NOT NULL REFERENCES kiosks (name),
    id bigint NOT NULL,
    -- the kiosk's own `kiosk` column (its display name from config.toml)
    kiosk_label text,
    game text NOT NULL,
    options text,
    seed numeric,
    demo integer,
    started text NOT NULL,
    started_mono double precision,
    ended text,
    ended_mono double precision,
    boot_id text,
    clock_synced integer,
    duration double precision,
    result text,
    moves integer,
    undos integer,
    hints integer,
    score bigint,
    cards_left integer,
    touches integer,
    button_presses integer,
    app_version text,
    PRIMARY KEY (kiosk, id)
);
CREATE INDEX plays_game_started ON plays (game, started);

CREATE TABLE moves (
    kiosk text NOT NULL,
    play_id bigint NOT NULL,
    seq integer NOT NULL,
    move text NOT NULL,
    t double precision,
    source text,
    -- no FOREIGN KEY to plays: a kiosk sends a play and its moves in one transaction, and
    -- the per-row check cost the catching-up sync half its speed (bench/sync.py)
    PRIMARY KEY (kiosk, play_id, seq)
);

CREATE TABLE hands (
    kiosk text NOT NULL,
    play_id bigint NOT NULL,
    seq integer NOT NULL,
    kind text NOT NULL,
    winner text,
    points bigint,
    visitor_score bigint,
    computer_score bigint,
    visitor_deadwood bigint,
    computer_deadwood bigint,
    level text,
    computer_version text,
    detail text,
    PRIMARY KEY (kiosk, play_id, seq)
);

CREATE TABLE matches (
    kiosk text NOT NULL,
    play_id bigint NOT NULL,
    game text NOT NULL,
    winner text,
    visitor_score bigint,
    computer_score bigint,
    hands integer,
    level text,
    computer_version text,
    detail text,
    PRIMARY KEY (kiosk, play_id)
);

CREATE TABLE events (
    kiosk text NOT NULL REFERENCES kiosks (name),
    id bigint NOT NULL,
    at text NOT NULL,
    mono double precision,
    boot_id text,
    clock_synced integer,
    kind text NOT NULL,
    detail text,
    app_version text,
    PRIMARY KEY (kiosk, id)
);
CREATE INDEX events_kind ON events (kind, kiosk, id);

-- The group every kiosk role belongs to; `kiosk fleet add-kiosk` makes the members. The
-- role may exist already (a second database on the same server).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleet_kiosk') THEN
        CREATE ROLE fleet_kiosk NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fleet_report') THEN
        CREATE ROLE fleet_report NOLOGIN;
    END IF;
END
$$;

GRANT SELECT ON fleet_schema_version TO fleet_kiosk;
GRANT SELECT, INSERT, UPDATE ON plays, moves, hands, matches, events TO fleet_kiosk;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['plays', 'moves', 'hands', 'matches', 'events'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        -- a kiosk role is named kiosk_<its name>: the row's kiosk must be that name
        EXECUTE format('CREATE POLICY own_rows ON %I TO fleet_kiosk'
                       ' USING (kiosk = substr(current_user::text, 7))'
                       ' WITH CHECK (kiosk = substr(current_user::text, 7))', t);
        EXECUTE format('CREATE POLICY report_reads ON %I FOR SELECT TO fleet_report USING (true)', t);
    END LOOP;
END
$$;
GRANT SELECT ON kiosks, plays, moves, hands, matches, events TO fleet_report;
