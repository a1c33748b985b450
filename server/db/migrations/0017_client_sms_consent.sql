ALTER TABLE "clients" ALTER COLUMN "notify_via_sms" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "sms_consent_at" timestamp(3) with time zone;