CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"attempt_no" integer NOT NULL,
	"attempted_at" timestamp(3) with time zone NOT NULL,
	"url" text NOT NULL,
	"http_status" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"response_snippet" text,
	"outcome" text NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"details" jsonb,
	CONSTRAINT "webhook_attempts_outcome_check" CHECK ("webhook_attempts"."outcome" IN ('success', 'failed', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "webhook_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"next_attempt_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_messages_status_check" CHECK ("webhook_messages"."status" IN ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "webhooks" DROP CONSTRAINT "webhooks_type_check";--> statement-breakpoint
-- Types renamed with the delivery (configurations made before keep their place).
UPDATE "webhooks" SET "type" = 'appointment.created' WHERE "type" = 'appointment.booked';--> statement-breakpoint
UPDATE "webhooks" SET "type" = 'summary.signed' WHERE "type" = 'summary.completed';--> statement-breakpoint
ALTER TABLE "webhooks" DROP CONSTRAINT "webhooks_url_check";--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_until" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "failing_since" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_message_idx" ON "webhook_attempts" USING btree ("message_id","attempt_no");--> statement-breakpoint
CREATE INDEX "webhook_messages_type_idx" ON "webhook_messages" USING btree ("type","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_disabled_reason_check" CHECK ("webhooks"."disabled_reason" IN ('gone', 'failing'));--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_type_check" CHECK ("webhooks"."type" IN ('appointment.created', 'appointment.rescheduled', 'appointment.cancelled', 'appointment.no_show', 'client.created', 'client.updated', 'client.sessions_closed', 'billable_item.approved', 'billable_item.invoice_sent', 'summary.signed'));--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_url_check" CHECK ("webhooks"."url" ~ '^https?://');