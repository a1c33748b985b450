CREATE TABLE "calendar_written_events" (
	"appointment_id" uuid NOT NULL,
	"calendar_id" uuid NOT NULL,
	"href" text NOT NULL,
	"etag" text,
	"written_at" timestamp(3) with time zone NOT NULL,
	CONSTRAINT "calendar_written_events_appointment_id_calendar_id_pk" PRIMARY KEY("appointment_id","calendar_id")
);
--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "share_client_first_name" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD COLUMN "write_error_code" text;--> statement-breakpoint
ALTER TABLE "calendar_written_events" ADD CONSTRAINT "calendar_written_events_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_written_events" ADD CONSTRAINT "calendar_written_events_calendar_id_connected_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."connected_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_written_events_calendar_idx" ON "calendar_written_events" USING btree ("calendar_id");