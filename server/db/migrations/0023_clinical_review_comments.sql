CREATE TABLE "clinical_review_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	"author_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "clinical_review_comments_type_check" CHECK ("clinical_review_comments"."document_type" IN ('summary', 'patient_card'))
);
--> statement-breakpoint
ALTER TABLE "clinical_review_comments" ADD CONSTRAINT "clinical_review_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "clinical_review_comments_document_idx" ON "clinical_review_comments" USING btree ("document_type","document_id","created_at");