ALTER TABLE "auth_users" ADD COLUMN "public_metadata" jsonb;--> statement-breakpoint
ALTER TABLE "auth_users" ADD COLUMN "private_metadata" jsonb;--> statement-breakpoint
ALTER TABLE "auth_users" ADD COLUMN "unsafe_metadata" jsonb;--> statement-breakpoint
ALTER TABLE "auth_users" ADD CONSTRAINT "auth_users_public_metadata_check" CHECK (jsonb_typeof("auth_users"."public_metadata") = 'object');--> statement-breakpoint
ALTER TABLE "auth_users" ADD CONSTRAINT "auth_users_private_metadata_check" CHECK (jsonb_typeof("auth_users"."private_metadata") = 'object');--> statement-breakpoint
ALTER TABLE "auth_users" ADD CONSTRAINT "auth_users_unsafe_metadata_check" CHECK (jsonb_typeof("auth_users"."unsafe_metadata") = 'object');