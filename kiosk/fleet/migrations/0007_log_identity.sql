-- Issue 32: a kiosk's play log has an identity (a random id the log keeps from its
-- creation, kiosk/records/playlog.py migration 5). When a kiosk's log is replaced (a
-- damaged file set aside, a new card) its ids start again at 1: the centre gives each log
-- of a kiosk its ordinal, and the kiosk sends its ids plus ordinal * 10^12, so the rows of
-- a new log never meet those of an old one and a kiosk's rows still sort by id in the
-- order they were played. The first log of a kiosk (and every log from before this
-- migration) is ordinal 0: its ids are unchanged.

CREATE TABLE logs (
    kiosk text NOT NULL REFERENCES kiosks (name) ON UPDATE CASCADE,
    log_id text NOT NULL CHECK (log_id ~ '^[0-9a-f]{8,64}$'),
    ordinal integer NOT NULL CHECK (ordinal >= 0),
    first_seen timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kiosk, log_id),
    UNIQUE (kiosk, ordinal)
);
GRANT SELECT ON logs TO fleet_report;

-- The ordinal of the calling kiosk's log `id`; registers a new log. `continuing`: the
-- kiosk has sent from this log before it had an identity (a cursor of an older version),
-- so an unknown id is still its first log.
CREATE FUNCTION fleet_log_ordinal(id text, continuing boolean) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    me text := public.fleet_kiosk_name();
    found_ordinal integer;
    any_log boolean;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a kiosk of this fleet', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- one registration at a time per kiosk (its own row; other kiosks never wait)
    PERFORM 1 FROM public.kiosks k WHERE k.name = me FOR NO KEY UPDATE;
    any_log := EXISTS (SELECT 1 FROM public.logs l WHERE l.kiosk = me);
    IF id IS NULL THEN
        IF any_log THEN
            RAISE EXCEPTION 'this kiosk''s play log has no identity, and the centre knows '
                'another log of it: restart the kiosk so that it upgrades its log'
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        RETURN 0;
    END IF;
    SELECT l.ordinal INTO found_ordinal FROM public.logs l WHERE l.kiosk = me AND l.log_id = id;
    IF FOUND THEN
        RETURN found_ordinal;
    END IF;
    IF NOT any_log AND (continuing
            OR NOT EXISTS (SELECT 1 FROM public.plays p WHERE p.kiosk = me)
            AND NOT EXISTS (SELECT 1 FROM public.events e WHERE e.kiosk = me)) THEN
        found_ordinal := 0;
    ELSE
        found_ordinal := coalesce((SELECT max(l.ordinal) FROM public.logs l
                                   WHERE l.kiosk = me), 0) + 1;
    END IF;
    INSERT INTO public.logs (kiosk, log_id, ordinal) VALUES (me, id, found_ordinal);
    RETURN found_ordinal;
END
$$;
REVOKE ALL ON FUNCTION fleet_log_ordinal(text, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_log_ordinal(text, boolean) TO fleet_kiosk;
