CREATE TABLE "communication_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"communication_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_items" (
	"invoice_id" uuid NOT NULL,
	"billable_item_id" uuid NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "invoice_items_invoice_id_billable_item_id_pk" PRIMARY KEY("invoice_id","billable_item_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_number_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "invoice_number_counters_last_check" CHECK ("invoice_number_counters"."last_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"kind" text DEFAULT 'invoice' NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"payer_kind" text NOT NULL,
	"payer_key" text NOT NULL,
	"recipient" jsonb NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"service_from" date NOT NULL,
	"service_to" date NOT NULL,
	"lines" jsonb NOT NULL,
	"vat_groups" jsonb NOT NULL,
	"net_cents" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"gross_cents" integer NOT NULL,
	"pdf" "bytea" NOT NULL,
	"xml" text,
	"cancels_invoice_id" uuid,
	"cancellation_reason" text,
	"sent_at" timestamp(3) with time zone,
	"sent_to" text,
	"cancelled_at" timestamp(3) with time zone,
	"created_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("invoices"."kind" IN ('invoice', 'cancellation')),
	CONSTRAINT "invoices_status_check" CHECK ("invoices"."status" IN ('issued', 'sent', 'cancelled')),
	CONSTRAINT "invoices_payer_check" CHECK ("invoices"."payer_kind" IN ('client', 'sponsor', 'statutory_insurer', 'private_insurer')),
	CONSTRAINT "invoices_sequence_check" CHECK ("invoices"."sequence" >= 1),
	CONSTRAINT "invoices_cancellation_check" CHECK (("invoices"."kind" = 'cancellation') = ("invoices"."cancels_invoice_id" IS NOT NULL)),
	CONSTRAINT "invoices_sent_check" CHECK ("invoices"."status" <> 'sent' OR "invoices"."sent_at" IS NOT NULL),
	CONSTRAINT "invoices_cancelled_check" CHECK ("invoices"."status" <> 'cancelled' OR "invoices"."cancelled_at" IS NOT NULL),
	CONSTRAINT "invoices_totals_check" CHECK ("invoices"."net_cents" + "invoices"."vat_cents" = "invoices"."gross_cents")
);
--> statement-breakpoint
ALTER TABLE "communication_attachments" ADD CONSTRAINT "communication_attachments_communication_id_communications_id_fk" FOREIGN KEY ("communication_id") REFERENCES "public"."communications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_billable_item_id_billable_items_id_fk" FOREIGN KEY ("billable_item_id") REFERENCES "public"."billable_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "communication_attachments_communication_idx" ON "communication_attachments" USING btree ("communication_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_items_live_item_key" ON "invoice_items" USING btree ("billable_item_id") WHERE "invoice_items"."live";--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_year_sequence_key" ON "invoices" USING btree ("year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_cancels_key" ON "invoices" USING btree ("cancels_invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_list_idx" ON "invoices" USING btree ("year" DESC NULLS LAST,"sequence" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_date_idx" ON "invoices" USING btree ("invoice_date");