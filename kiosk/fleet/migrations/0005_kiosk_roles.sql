-- Issue 32: least privilege that holds against a stolen card (docs/fleet.md, "Least
-- privilege").
--
-- * A kiosk's name and its role are no longer tied by a string rule (`substr(current_user,
--   7)`, which let any member of fleet_kiosk `SET ROLE fleet_kiosk` and read the rows of a
--   kiosk named "kiosk"): the `kiosks` table maps the login role (session_user, which SET
--   ROLE does not change) to the name, through fleet_kiosk_name(). New roles are random
--   (`kiosk fleet add-kiosk`), so pg_roles, which every role may read, names no kiosk.
-- * Kiosk roles insert; they update only the columns of `plays` that change when a play
--   ends (a play is sent while open and again once it ended); they delete nothing. A role
--   with UPDATE on a whole table may LOCK it in any mode and stop every other kiosk;
--   INSERT allows ROW EXCLUSIVE at most, which no other kiosk's insert waits for.
-- * Kiosks read only their own `plays` rows (the upsert needs them), nothing else.
-- * Retired kiosks keep their rows; `retired` hides them from `fleet status`.
-- * Names as hosts are named: letters, digits and hyphens (old names with _ stay valid).

ALTER TABLE kiosks DROP CONSTRAINT IF EXISTS kiosks_name_check;
ALTER TABLE kiosks ADD CONSTRAINT kiosks_name_check CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,39}$');
ALTER TABLE kiosks DROP CONSTRAINT IF EXISTS kiosks_grp_check;
ALTER TABLE kiosks ADD CONSTRAINT kiosks_grp_check CHECK (grp ~ '^[a-z0-9][a-z0-9_-]{0,39}$');
ALTER TABLE kiosks ADD COLUMN retired timestamptz;
ALTER TABLE kiosks ADD COLUMN renamed_from text;

-- `kiosk fleet rename` changes the name in every row: the tables that reference `kiosks`
-- follow it. NOT VALID skips a scan of tables that may hold billions of rows: each row was
-- checked by the constraint this one replaces, in this same transaction.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['plays', 'events', 'heartbeats', 'status_looks'] LOOP
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_kiosk_fkey');
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (kiosk) REFERENCES '
                       'kiosks (name) ON UPDATE CASCADE NOT VALID', t, t || '_kiosk_fkey');
    END LOOP;
END
$$;

-- The kiosk this session logged in as, NULL for any other role. SECURITY DEFINER: the
-- kiosks table itself stays unreadable to kiosks. Used as `(SELECT fleet_kiosk_name())`,
-- an InitPlan evaluated once per statement, not once per row.
CREATE FUNCTION fleet_kiosk_name() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT k.name FROM public.kiosks k WHERE k.role = session_user AND k.retired IS NULL
$$;
REVOKE ALL ON FUNCTION fleet_kiosk_name() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_kiosk_name() TO fleet_kiosk;

REVOKE ALL ON plays, moves, hands, matches, events FROM fleet_kiosk;
GRANT INSERT ON plays, moves, hands, matches, events TO fleet_kiosk;
GRANT SELECT ON plays TO fleet_kiosk;
-- what changes when a play ends (kiosk/records/playlog.py, PlayLog._write_play and the
-- `interrupted` mark of the next start): never its kiosk, id, game, deal or start
GRANT UPDATE (moves, undos, hints, touches, button_presses, duration, result, ended,
              ended_mono, score, cards_left) ON plays TO fleet_kiosk;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['plays', 'moves', 'hands', 'matches', 'events'] LOOP
        EXECUTE format('DROP POLICY own_rows ON %I', t);
        EXECUTE format('CREATE POLICY kiosk_inserts ON %I FOR INSERT TO fleet_kiosk'
                       ' WITH CHECK (kiosk = (SELECT fleet_kiosk_name()))', t);
    END LOOP;
END
$$;
CREATE POLICY kiosk_reads ON plays FOR SELECT TO fleet_kiosk
    USING (kiosk = (SELECT fleet_kiosk_name()));
CREATE POLICY kiosk_updates ON plays FOR UPDATE TO fleet_kiosk
    USING (kiosk = (SELECT fleet_kiosk_name()))
    WITH CHECK (kiosk = (SELECT fleet_kiosk_name()));

DROP POLICY own_rows ON heartbeats;
CREATE POLICY kiosk_inserts ON heartbeats FOR INSERT TO fleet_kiosk
    WITH CHECK (kiosk = (SELECT fleet_kiosk_name()));

CREATE OR REPLACE FUNCTION fleet_my_settings()
RETURNS TABLE (version bigint, scope text, settings text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT l.version, l.scope, l.settings FROM public.settings_layers l
    WHERE l.kiosk = public.fleet_kiosk_name()
    ORDER BY CASE l.scope WHEN 'all' THEN 1 WHEN 'group' THEN 2 ELSE 3 END
$$;

-- Only the fleet's roles reach this database (the owner keeps its own rights): kiosks
-- connect and make their staging tables, the office's readers connect. Other databases of
-- the server (postgres, template1) are a superuser's to close: docs/fleet.md.
DO $$
BEGIN
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO fleet_kiosk',
                   current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO fleet_report', current_database());
END
$$;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
