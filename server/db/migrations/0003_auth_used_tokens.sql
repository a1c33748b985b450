CREATE TABLE "auth_used_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_used_tokens_expires_idx" ON "auth_used_tokens" USING btree ("expires_at");