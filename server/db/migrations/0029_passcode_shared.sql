ALTER TABLE "auth_passcodes" ADD COLUMN "code_sealed" text;--> statement-breakpoint
CREATE INDEX "auth_passcodes_email_idx" ON "auth_passcodes" USING btree ("email","expires_at");