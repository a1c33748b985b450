CREATE TABLE "calendar_busy_times" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"calendar_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"href" text NOT NULL,
	"start_date" timestamp(3) with time zone NOT NULL,
	"end_date" timestamp(3) with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL,
	CONSTRAINT "calendar_busy_times_order_check" CHECK ("calendar_busy_times"."end_date" > "calendar_busy_times"."start_date")
);
--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coach_id" uuid NOT NULL,
	"server_url" text NOT NULL,
	"username" text NOT NULL,
	"sealed_password" text NOT NULL,
	"all_day_blocks" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"last_synced_at" timestamp(3) with time zone,
	"last_attempt_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_connections_status_check" CHECK ("calendar_connections"."status" IN ('pending', 'ok', 'failing')),
	CONSTRAINT "calendar_connections_url_check" CHECK ("calendar_connections"."server_url" ~ '^https?://')
);
--> statement-breakpoint
CREATE TABLE "calendar_objects" (
	"calendar_id" uuid NOT NULL,
	"href" text NOT NULL,
	"etag" text NOT NULL,
	"expanded_until" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connected_calendars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"url" text NOT NULL,
	"display_name" text NOT NULL,
	"blocks" boolean DEFAULT false NOT NULL,
	"receives" boolean DEFAULT false NOT NULL,
	"ctag" text,
	"sync_token" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_busy_times" ADD CONSTRAINT "calendar_busy_times_calendar_id_connected_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."connected_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_busy_times" ADD CONSTRAINT "calendar_busy_times_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_objects" ADD CONSTRAINT "calendar_objects_calendar_id_connected_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."connected_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connected_calendars" ADD CONSTRAINT "connected_calendars_connection_id_calendar_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."calendar_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_busy_times_coach_idx" ON "calendar_busy_times" USING btree ("coach_id","start_date");--> statement-breakpoint
CREATE INDEX "calendar_busy_times_object_idx" ON "calendar_busy_times" USING btree ("calendar_id","href");--> statement-breakpoint
CREATE INDEX "calendar_connections_coach_idx" ON "calendar_connections" USING btree ("coach_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_objects_key" ON "calendar_objects" USING btree ("calendar_id","href");--> statement-breakpoint
CREATE UNIQUE INDEX "connected_calendars_url_key" ON "connected_calendars" USING btree ("connection_id","url");--> statement-breakpoint
CREATE UNIQUE INDEX "connected_calendars_receiving_key" ON "connected_calendars" USING btree ("connection_id") WHERE "connected_calendars"."receives";