ALTER TABLE "coaches" ADD COLUMN "schedule_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every change to a coach's appointments or availability raises coaches.schedule_version in
-- the same transaction, so a cached free-slot calendar can tell it is stale with one cheap read.
-- Statement-level with transition tables: a bulk change touches each coach once.
CREATE FUNCTION "touch_coach_schedule"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'availability_overrides' THEN
    IF TG_OP = 'INSERT' THEN
      UPDATE coaches SET schedule_version = schedule_version + 1 WHERE id IN (
        SELECT a.coach_id FROM availabilities a WHERE a.id IN (SELECT availability_id FROM new_rows));
    ELSIF TG_OP = 'DELETE' THEN
      UPDATE coaches SET schedule_version = schedule_version + 1 WHERE id IN (
        SELECT a.coach_id FROM availabilities a WHERE a.id IN (SELECT availability_id FROM old_rows));
    ELSE
      UPDATE coaches SET schedule_version = schedule_version + 1 WHERE id IN (
        SELECT a.coach_id FROM availabilities a WHERE a.id IN (
          SELECT availability_id FROM new_rows UNION SELECT availability_id FROM old_rows));
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE coaches SET schedule_version = schedule_version + 1
     WHERE id IN (SELECT coach_id FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE coaches SET schedule_version = schedule_version + 1
     WHERE id IN (SELECT coach_id FROM old_rows);
  ELSE
    UPDATE coaches SET schedule_version = schedule_version + 1
     WHERE id IN (SELECT coach_id FROM new_rows UNION SELECT coach_id FROM old_rows);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "appointments_schedule_insert" AFTER INSERT ON "appointments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "appointments_schedule_update" AFTER UPDATE ON "appointments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "appointments_schedule_delete" AFTER DELETE ON "appointments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availabilities_schedule_insert" AFTER INSERT ON "availabilities"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availabilities_schedule_update" AFTER UPDATE ON "availabilities"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availabilities_schedule_delete" AFTER DELETE ON "availabilities"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availability_overrides_schedule_insert" AFTER INSERT ON "availability_overrides"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availability_overrides_schedule_update" AFTER UPDATE ON "availability_overrides"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
--> statement-breakpoint
CREATE TRIGGER "availability_overrides_schedule_delete" AFTER DELETE ON "availability_overrides"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "touch_coach_schedule"();
