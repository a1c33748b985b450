CREATE TABLE "clinical_open_patient_cards" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"start_date" timestamp(3) with time zone NOT NULL,
	"end_date" timestamp(3) with time zone NOT NULL,
	"patient_card_id" uuid
);
--> statement-breakpoint
CREATE TABLE "clinical_open_summaries" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"coach_id" uuid NOT NULL,
	"start_date" timestamp(3) with time zone NOT NULL,
	"end_date" timestamp(3) with time zone NOT NULL,
	"summary_id" uuid
);
--> statement-breakpoint
CREATE INDEX "clinical_open_patient_cards_start_idx" ON "clinical_open_patient_cards" USING btree ("start_date","appointment_id");--> statement-breakpoint
CREATE INDEX "clinical_open_patient_cards_coach_start_idx" ON "clinical_open_patient_cards" USING btree ("coach_id","start_date","appointment_id");--> statement-breakpoint
CREATE INDEX "clinical_open_summaries_start_idx" ON "clinical_open_summaries" USING btree ("start_date","appointment_id");--> statement-breakpoint
CREATE INDEX "clinical_open_summaries_coach_start_idx" ON "clinical_open_summaries" USING btree ("coach_id","start_date","appointment_id");--> statement-breakpoint
-- The open clinical work, kept in the writing transaction (issue 20 figures). Each sync
-- function recomputes the rows of the ids it is given from the source tables, so every
-- trigger only has to name what it touched. Inserts and deletes are statement-level with
-- transition tables (a bulk load runs each function once); updates are row-level with a WHEN
-- on the columns that matter, so the frequent updates (autosaves, notes) run nothing.
CREATE FUNCTION "clinical_sync_open_summaries"(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM clinical_open_summaries WHERE appointment_id IN (SELECT unnest(ids));
  INSERT INTO clinical_open_summaries (appointment_id, coach_id, start_date, end_date, summary_id)
  SELECT a.id, a.coach_id, a.start_date, a.end_date, s.id
    FROM (SELECT DISTINCT unnest(ids) AS id) x
    JOIN appointments a ON a.id = x.id
    LEFT JOIN appointment_summaries s ON s.appointment_id = a.id
   WHERE a.cancelled_at IS NULL AND NOT a.no_show AND NOT a.is_provisional
     AND (s.id IS NULL OR s.status = 'new');
$$;
--> statement-breakpoint
CREATE FUNCTION "clinical_sync_open_patient_cards"(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM clinical_open_patient_cards WHERE client_id IN (SELECT unnest(ids));
  INSERT INTO clinical_open_patient_cards
         (client_id, appointment_id, coach_id, start_date, end_date, patient_card_id)
  SELECT c.id, f.id, COALESCE(c.coached_by_id, f.coach_id), f.start_date, f.end_date, p.id
    FROM (SELECT DISTINCT unnest(ids) AS id) x
    JOIN clients c ON c.id = x.id
    CROSS JOIN LATERAL (
      SELECT a.id, a.coach_id, a.start_date, a.end_date FROM appointments a
       WHERE a.client_id = c.id AND a.cancelled_at IS NULL AND NOT a.no_show AND NOT a.is_provisional
       ORDER BY a.start_date, a.id LIMIT 1) f
    LEFT JOIN patient_cards p ON p.client_id = c.id AND p.status <> 'canceled'
   WHERE p.id IS NULL OR p.status = 'new';
$$;
--> statement-breakpoint
CREATE FUNCTION "clinical_open_work_appointments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM clinical_sync_open_summaries(ARRAY(SELECT id FROM new_rows));
    PERFORM clinical_sync_open_patient_cards(ARRAY(SELECT DISTINCT client_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM clinical_sync_open_summaries(ARRAY(SELECT id FROM old_rows));
    PERFORM clinical_sync_open_patient_cards(ARRAY(SELECT DISTINCT client_id FROM old_rows));
  ELSE
    -- Row level, only for rows whose held-ness, time, coach or client changed (WHEN of the
    -- trigger): a notes edit runs nothing here.
    PERFORM clinical_sync_open_summaries(ARRAY[NEW.id]);
    PERFORM clinical_sync_open_patient_cards(ARRAY[NEW.client_id, OLD.client_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "clinical_open_work_summaries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM clinical_sync_open_summaries(ARRAY(SELECT appointment_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM clinical_sync_open_summaries(ARRAY(SELECT appointment_id FROM old_rows));
  ELSE
    -- Row level, and only when the status or the appointment changed (WHEN of the trigger):
    -- an autosave, which changes neither, runs nothing here.
    PERFORM clinical_sync_open_summaries(ARRAY[NEW.appointment_id, OLD.appointment_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "clinical_open_work_patient_cards"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM clinical_sync_open_patient_cards(ARRAY(SELECT DISTINCT client_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM clinical_sync_open_patient_cards(ARRAY(SELECT DISTINCT client_id FROM old_rows));
  ELSE
    -- Row level, only when the status or the client changed (as for summaries).
    PERFORM clinical_sync_open_patient_cards(ARRAY[NEW.client_id, OLD.client_id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A client's coach decides whose open card work it is; deleting a client (erasure) removes it.
CREATE FUNCTION "clinical_open_work_clients"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM clinical_open_patient_cards WHERE client_id IN (SELECT id FROM old_rows);
  ELSE
    -- Row level, only when the coach changed (WHEN of the trigger).
    PERFORM clinical_sync_open_patient_cards(ARRAY[NEW.id]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "appointments_open_work_insert" AFTER INSERT ON "appointments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_appointments"();
--> statement-breakpoint
CREATE TRIGGER "appointments_open_work_update" AFTER UPDATE ON "appointments" FOR EACH ROW
  WHEN ((NEW.cancelled_at, NEW.no_show, NEW.is_provisional, NEW.start_date, NEW.end_date, NEW.coach_id, NEW.client_id)
        IS DISTINCT FROM
        (OLD.cancelled_at, OLD.no_show, OLD.is_provisional, OLD.start_date, OLD.end_date, OLD.coach_id, OLD.client_id))
  EXECUTE FUNCTION "clinical_open_work_appointments"();
--> statement-breakpoint
CREATE TRIGGER "appointments_open_work_delete" AFTER DELETE ON "appointments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_appointments"();
--> statement-breakpoint
CREATE TRIGGER "appointment_summaries_open_work_insert" AFTER INSERT ON "appointment_summaries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_summaries"();
--> statement-breakpoint
CREATE TRIGGER "appointment_summaries_open_work_update" AFTER UPDATE OF status, appointment_id ON "appointment_summaries"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.appointment_id IS DISTINCT FROM NEW.appointment_id)
  EXECUTE FUNCTION "clinical_open_work_summaries"();
--> statement-breakpoint
CREATE TRIGGER "appointment_summaries_open_work_delete" AFTER DELETE ON "appointment_summaries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_summaries"();
--> statement-breakpoint
CREATE TRIGGER "patient_cards_open_work_insert" AFTER INSERT ON "patient_cards"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_patient_cards"();
--> statement-breakpoint
CREATE TRIGGER "patient_cards_open_work_update" AFTER UPDATE OF status, client_id ON "patient_cards"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.client_id IS DISTINCT FROM NEW.client_id)
  EXECUTE FUNCTION "clinical_open_work_patient_cards"();
--> statement-breakpoint
CREATE TRIGGER "patient_cards_open_work_delete" AFTER DELETE ON "patient_cards"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_patient_cards"();
--> statement-breakpoint
CREATE TRIGGER "clients_open_work_update" AFTER UPDATE OF coached_by_id ON "clients" FOR EACH ROW
  WHEN (OLD.coached_by_id IS DISTINCT FROM NEW.coached_by_id)
  EXECUTE FUNCTION "clinical_open_work_clients"();
--> statement-breakpoint
CREATE TRIGGER "clients_open_work_delete" AFTER DELETE ON "clients"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "clinical_open_work_clients"();
--> statement-breakpoint
-- The work that is open today.
SELECT clinical_sync_open_summaries(ARRAY(SELECT id FROM appointments));
--> statement-breakpoint
SELECT clinical_sync_open_patient_cards(ARRAY(SELECT id FROM clients));
