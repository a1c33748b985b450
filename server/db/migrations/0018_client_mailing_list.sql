CREATE TABLE "mailing_list_syncs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by_id" uuid,
	"started_at" timestamp(3) with time zone,
	"finished_at" timestamp(3) with time zone,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_list_syncs_status_check" CHECK ("mailing_list_syncs"."status" IN ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "newsletter_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "mailing_list_status" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "email_bounced_at" timestamp(3) with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "email_bounce_reason" text;--> statement-breakpoint
ALTER TABLE "mailing_list_syncs" ADD CONSTRAINT "mailing_list_syncs_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_list_syncs_one_active_key" ON "mailing_list_syncs" USING btree ((true)) WHERE "mailing_list_syncs"."status" IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "clients_newsletter_idx" ON "clients" USING btree ("id") WHERE "clients"."newsletter_consent";--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_mailing_list_status_check" CHECK ("clients"."mailing_list_status" IS NULL OR "clients"."mailing_list_status" IN ('subscribed', 'pending', 'unsubscribed', 'cleaned'));--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_email_bounce_check" CHECK (("clients"."email_bounced_at" IS NULL) = ("clients"."email_bounce_reason" IS NULL) AND ("clients"."email_bounce_reason" IS NULL OR "clients"."email_bounce_reason" IN ('hard', 'abuse')));