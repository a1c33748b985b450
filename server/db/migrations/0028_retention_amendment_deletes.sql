-- Amendments stay append-only for everyone but the retention job: when the documentation's
-- ten years (§ 630f BGB) are over, the job deletes the document with its amendments and says
-- so in its own transaction (SET LOCAL sprechstunde.retention = 'on'). Updates stay refused.
CREATE OR REPLACE FUNCTION clinical_amendments_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('sprechstunde.retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'clinical_amendments are append-only';
END;
$$;
