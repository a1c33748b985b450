ALTER TABLE "campaigns" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "country" text DEFAULT 'DE' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "invoice_email" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "street" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "country" text DEFAULT 'DE' NOT NULL;--> statement-breakpoint
ALTER TABLE "insurers" ADD COLUMN "invoice_email" text;