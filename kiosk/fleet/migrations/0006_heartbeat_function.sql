-- Issue 32: a kiosk no longer writes `heartbeats` itself. It calls fleet_heartbeat() with
-- its figures as JSON; the server sets the row's id, its time (`received`) and its kiosk.
-- Before, a kiosk could take the next ids (every other kiosk's pass then failed on the
-- primary key) or write `received = '2099-01-01'` (a silent kiosk listed as fine).
--
-- The function also keeps the table small: each call removes the calling kiosk's
-- heartbeats older than `heartbeat_days` (fleet_config; `kiosk fleet retention`), by
-- the (kiosk, received) index. A column added to `heartbeats` later is taken from the JSON
-- by its name, with no change here (jsonb_populate_record).

CREATE TABLE fleet_config (
    key text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO fleet_config (key, value) VALUES ('heartbeat_days', '14');
GRANT SELECT ON fleet_config TO fleet_report;

REVOKE ALL ON heartbeats FROM fleet_kiosk;
REVOKE ALL ON SEQUENCE heartbeats_id_seq FROM fleet_kiosk;
DROP POLICY kiosk_inserts ON heartbeats;

CREATE FUNCTION fleet_heartbeat(beat jsonb) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    me text := public.fleet_kiosk_name();
    r public.heartbeats;
    keep integer;
BEGIN
    IF me IS NULL THEN
        RAISE EXCEPTION 'role % is not a kiosk of this fleet', session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    r := jsonb_populate_record(NULL::public.heartbeats, beat);
    r.id := nextval('public.heartbeats_id_seq');
    r.received := now();
    r.kiosk := me;
    INSERT INTO public.heartbeats SELECT r.*;
    SELECT c.value::integer INTO keep FROM public.fleet_config c WHERE c.key = 'heartbeat_days';
    IF keep > 0 THEN
        DELETE FROM public.heartbeats h
        WHERE h.kiosk = me AND h.received < now() - make_interval(days => keep);
    END IF;
    RETURN r.id;
END
$$;
REVOKE ALL ON FUNCTION fleet_heartbeat(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fleet_heartbeat(jsonb) TO fleet_kiosk;
