-- Issue 33, item 6: updates from the centre (docs/updates.md, "From the centre").
--
-- The office records the system version it wants on all kiosks, a group or one kiosk
-- (`kiosk fleet release URL`): where the bundle is, its size and sha256, and its version
-- as its manifest says. A kiosk wants the newest release that reaches it, reads it only
-- through fleet_my_release() (keyed by its login role, like its settings) and writes no
-- release. Its heartbeat reports the running version, the booted slot and the last
-- update's outcome; a rollback of a release that reached it halts that version for the
-- whole fleet (release_halts) until the office resumes it (`kiosk fleet release --resume`).

CREATE TABLE releases (
    id bigserial PRIMARY KEY,
    -- kiosk/updates/version.py: the app's version and the build's UTC time
    version text NOT NULL CHECK (version ~ '^[0-9]+(\.[0-9]+)*\+[0-9]{8}\.[0-9]{6}$'),
    -- any static HTTP(S) server; RAUC's signature, not the transport, makes it trusted
    url text NOT NULL CHECK (url ~ '^https?://[^[:space:][:cntrl:]]+$' AND length(url) <= 2000),
    size bigint NOT NULL CHECK (size > 0),
    sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    scope text NOT NULL CHECK (scope IN ('all', 'group', 'kiosk')),
    target text CHECK ((scope = 'all') = (target IS NULL)),
    created timestamptz NOT NULL DEFAULT now(),
    created_by text NOT NULL DEFAULT current_user
);
CREATE INDEX releases_scope_target ON releases (scope, target, id DESC);

-- A version no kiosk starts to download or install until the office resumes it: set by
-- the first rollback of a release that reached the kiosk reporting it (kiosk, release_id),
-- or by the office (`--halt`, kiosk NULL).
CREATE TABLE release_halts (
    version text PRIMARY KEY,
    halted timestamptz NOT NULL DEFAULT now(),
    kiosk text REFERENCES kiosks (name) ON UPDATE CASCADE,
    release_id bigint REFERENCES releases (id),
    reason text NOT NULL,
    resumed timestamptz,
    resumed_by text
);

-- Every rollback a kiosk reported, once: `fleet status` lists the kiosk as needing a
-- person until the office has seen it (`--resume VERSION` acknowledges the rollbacks of
-- that version). release_id 0: an update that did not come from the centre (a USB stick).
CREATE TABLE release_rollbacks (
    kiosk text NOT NULL REFERENCES kiosks (name) ON UPDATE CASCADE,
    version text NOT NULL,
    release_id bigint NOT NULL DEFAULT 0,
    message text,
    seen timestamptz NOT NULL DEFAULT now(),
    acknowledged timestamptz,
    PRIMARY KEY (kiosk, version, release_id)
);

GRANT SELECT ON releases, release_halts, release_rollbacks TO fleet_report;

-- What the heartbeat adds (kiosk/fleet/heartbeat.py; fleet_heartbeat() takes columns by
-- name, so it needs no change).
ALTER TABLE heartbeats
    ADD COLUMN system_version text,     -- the running system (IMAGE_VERSION), NULL off the image
    ADD COLUMN booted_slot text,        -- A or B
    ADD COLUMN update_state text,       -- update-status.json: checking ... committed, rolled-back
    ADD COLUMN update_version text,     -- the version that update was for
    ADD COLUMN update_message text,     -- its one line
    ADD COLUMN update_release bigint,   -- the release it came from (NULL: a USB stick)
    ADD COLUMN download_release bigint, -- the release the kiosk works on
    ADD COLUMN download_state text,     -- kiosk/updates/centre.py
    ADD COLUMN download_bytes bigint,
    ADD COLUMN download_error text;

-- The newest release that reaches the calling kiosk, and whether its version is halted.
-- SECURITY DEFINER, keyed by the login role (fleet_kiosk_name()): no kiosk reads the
-- tables, another kiosk's release or a release of another group.
CREATE FUNCTION fleet_my_release()
RETURNS TABLE (id bigint, version text, url text, size bigint, sha256 text, scope text,
               halted boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT r.id, r.version, r.url, r.size, r.sha256, r.scope,
           EXISTS (SELECT 1 FROM public.release_halts h
                   WHERE h.version = r.version AND h.resumed IS NULL)
    FROM public.kiosks k
    JOIN public.releases r ON r.scope = 'all'
                           OR (r.scope = 'group' AND r.target = k.grp)
                           OR (r.scope = 'kiosk' AND r.target = k.name)
    WHERE k.name = public.fleet_kiosk_name()
    ORDER BY r.id DESC
    LIMIT 1
$$;
REVOKE ALL ON FUNCTION fleet_my_release() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_my_release() TO fleet_kiosk;

-- A heartbeat that reports a rollback: recorded once per (kiosk, version, release), and
-- when it is new and its release reached that kiosk with that version, the version halts
-- (an active halt stays as it is). The kiosk is the one fleet_heartbeat() set, never one
-- the kiosk named; a stolen card can halt only a version released to it, and the office
-- sees which kiosk did (docs/updates.md, "Staged rollout").
CREATE FUNCTION fleet_note_rollback() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    rel public.releases;
    kiosk_group text;
BEGIN
    INSERT INTO public.release_rollbacks (kiosk, version, release_id, message)
    VALUES (NEW.kiosk, left(NEW.update_version, 100), coalesce(NEW.update_release, 0),
            left(NEW.update_message, 500))
    ON CONFLICT DO NOTHING;
    IF NOT FOUND OR NEW.update_release IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT k.grp INTO kiosk_group FROM public.kiosks k WHERE k.name = NEW.kiosk;
    SELECT * INTO rel FROM public.releases r
    WHERE r.id = NEW.update_release AND r.version = NEW.update_version
      AND (r.scope = 'all' OR (r.scope = 'group' AND r.target = kiosk_group)
           OR (r.scope = 'kiosk' AND r.target = NEW.kiosk));
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.release_halts AS h (version, kiosk, release_id, reason)
    VALUES (rel.version, NEW.kiosk, rel.id,
            coalesce(left(NEW.update_message, 500), 'rolled back'))
    ON CONFLICT (version) DO UPDATE
        SET halted = now(), kiosk = EXCLUDED.kiosk, release_id = EXCLUDED.release_id,
            reason = EXCLUDED.reason, resumed = NULL, resumed_by = NULL
        WHERE h.resumed IS NOT NULL;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION fleet_note_rollback() FROM PUBLIC;
CREATE TRIGGER heartbeats_rollback AFTER INSERT ON heartbeats FOR EACH ROW
    WHEN (NEW.update_state = 'rolled-back' AND NEW.update_version IS NOT NULL)
    EXECUTE FUNCTION fleet_note_rollback();
