CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"start_date" timestamp(3) with time zone NOT NULL,
	"end_date" timestamp(3) with time zone NOT NULL,
	"appointment_type" text NOT NULL,
	"meeting_type" text DEFAULT 'jitsi' NOT NULL,
	"meeting_code_coach" text NOT NULL,
	"meeting_code_client" text NOT NULL,
	"video_room" text NOT NULL,
	"external_meeting_url" text,
	"appointment_number" integer NOT NULL,
	"is_provisional" boolean DEFAULT false NOT NULL,
	"provisional_until" timestamp(3) with time zone,
	"no_show" boolean DEFAULT false NOT NULL,
	"cancelled_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_range_check" CHECK ("appointments"."end_date" > "appointments"."start_date"),
	CONSTRAINT "appointments_type_check" CHECK ("appointments"."appointment_type" IN ('initial', 'first', 'followup', 'first-arztkonsultation', 'followup-arztkonsultation', 'adhoc')),
	CONSTRAINT "appointments_meeting_type_check" CHECK ("appointments"."meeting_type" IN ('jitsi', 'xodosign', 'arztkonsultation'))
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"active" boolean DEFAULT true NOT NULL,
	"starts_at" timestamp(3) with time zone,
	"ends_at" timestamp(3) with time zone
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"year_of_birth" integer,
	"street" text,
	"city" text,
	"postal_code" text,
	"country" text DEFAULT 'DE',
	"telephone" text,
	"additional_telephone_numbers" text,
	"has_not_signed_required_contract" boolean DEFAULT false NOT NULL,
	"rejection_reason_type" text,
	"rejection_reason_notes" text,
	"insurer" text,
	"insurer_code" text,
	"campaign" text,
	"client_type" text DEFAULT 'self' NOT NULL,
	"contact_person" jsonb,
	"how_did_you_hear_about_us" text,
	"diagnosis" text,
	"initial_diagnosis" date,
	"mental_stress_indicator" integer,
	"paid_by_sponsor" boolean DEFAULT false NOT NULL,
	"wants_to_provide_recordings_for_research" boolean DEFAULT false NOT NULL,
	"notify_via_sms" boolean DEFAULT true NOT NULL,
	"notes" text,
	"sessions_closed_on" timestamp(3) with time zone,
	"coached_by_id" uuid,
	"existing_client_of_coach_id" uuid,
	"contract_reminder_sent_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_client_type_check" CHECK ("clients"."client_type" IN ('self', 'relative')),
	CONSTRAINT "clients_rejection_reason_check" CHECK ("clients"."rejection_reason_type" IS NULL OR "clients"."rejection_reason_type" IN ('not_reachable', 'not_eligible', 'no_interest', 'declined_contract', 'other')),
	CONSTRAINT "clients_stress_check" CHECK ("clients"."mental_stress_indicator" IS NULL OR "clients"."mental_stress_indicator" BETWEEN 0 AND 10),
	CONSTRAINT "clients_year_check" CHECK ("clients"."year_of_birth" IS NULL OR "clients"."year_of_birth" BETWEEN 1900 AND 2100)
);
--> statement-breakpoint
CREATE TABLE "coaches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"telephone" text,
	"title" text,
	"takes_initial_appointments" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"occurred_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"type" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" uuid,
	"important" boolean DEFAULT true NOT NULL,
	"actor_user_id" uuid,
	"appointment_id" uuid,
	"client_id" uuid,
	"coach_id" uuid,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "events_source_check" CHECK ("events"."source" IN ('business', 'system'))
);
--> statement-breakpoint
CREATE TABLE "insurers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"ik_number" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "insurers_ik_check" CHECK ("insurers"."ik_number" ~ '^[0-9]{9}$')
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"auth_subject" text,
	"email" text NOT NULL,
	"role" text DEFAULT 'NONE' NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"coach_id" uuid,
	"activation_code_hash" text,
	"activated_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" IN ('NONE', 'COACH', 'ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN'))
);
--> statement-breakpoint
CREATE TABLE "availabilities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coach_id" uuid NOT NULL,
	"kind" text DEFAULT 'available' NOT NULL,
	"start_day" date NOT NULL,
	"start_time" time NOT NULL,
	"end_time" time NOT NULL,
	"recurrence" text,
	"series_start" timestamp(3) with time zone NOT NULL,
	"series_end" timestamp(3) with time zone,
	"note" text,
	"created_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availabilities_kind_check" CHECK ("availabilities"."kind" IN ('available', 'blocker')),
	CONSTRAINT "availabilities_time_check" CHECK ("availabilities"."end_time" > "availabilities"."start_time"),
	CONSTRAINT "availabilities_recurrence_check" CHECK ("availabilities"."recurrence" IS NULL OR ("availabilities"."recurrence" LIKE 'FREQ=WEEKLY%' AND char_length("availabilities"."recurrence") <= 200)),
	CONSTRAINT "availabilities_series_check" CHECK ("availabilities"."series_end" IS NULL OR "availabilities"."series_end" > "availabilities"."series_start")
);
--> statement-breakpoint
CREATE TABLE "availability_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"availability_id" uuid NOT NULL,
	"occurrence_date" date NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"start_date" timestamp(3) with time zone,
	"end_date" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_overrides_shape_check" CHECK ("availability_overrides"."cancelled" OR ("availability_overrides"."start_date" IS NOT NULL AND "availability_overrides"."end_date" IS NOT NULL AND "availability_overrides"."end_date" > "availability_overrides"."start_date"))
);
--> statement-breakpoint
CREATE TABLE "billing_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"appointment_type" text,
	"insurer" text,
	"campaign" text,
	"amount_cents" integer NOT NULL,
	"description" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_rules_position_check" CHECK ("billing_rules"."position" >= 0),
	CONSTRAINT "billing_rules_amount_check" CHECK ("billing_rules"."amount_cents" BETWEEN 0 AND 100000000),
	CONSTRAINT "billing_rules_type_check" CHECK ("billing_rules"."appointment_type" IS NULL OR "billing_rules"."appointment_type" IN ('initial', 'first', 'followup', 'first-arztkonsultation', 'followup-arztkonsultation', 'adhoc'))
);
--> statement-breakpoint
CREATE TABLE "billable_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"coach_id" uuid NOT NULL,
	"billing_rule_id" uuid,
	"appointment_type" text NOT NULL,
	"description" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"insurer" text,
	"service_date" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"validation_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"approved_at" timestamp(3) with time zone,
	"approved_by_id" uuid,
	"invoice_sent_at" timestamp(3) with time zone,
	"cancelled_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billable_items_status_check" CHECK ("billable_items"."status" IN ('pending', 'validation_failed', 'approved', 'invoice_sent', 'cancelled')),
	CONSTRAINT "billable_items_currency_check" CHECK ("billable_items"."currency" = 'EUR'),
	CONSTRAINT "billable_items_amount_check" CHECK ("billable_items"."amount_cents" BETWEEN 0 AND 100000000),
	CONSTRAINT "billable_items_type_check" CHECK ("billable_items"."appointment_type" IN ('initial', 'first', 'followup', 'first-arztkonsultation', 'followup-arztkonsultation', 'adhoc')),
	CONSTRAINT "billable_items_invoice_check" CHECK ("billable_items"."status" <> 'invoice_sent' OR "billable_items"."invoice_sent_at" IS NOT NULL),
	CONSTRAINT "billable_items_cancel_check" CHECK ("billable_items"."status" <> 'cancelled' OR "billable_items"."cancelled_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"secret" text,
	"active" boolean DEFAULT true NOT NULL,
	"updated_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhooks_type_check" CHECK ("webhooks"."type" IN ('appointment.booked', 'appointment.rescheduled', 'appointment.cancelled', 'appointment.no_show', 'client.created', 'client.updated', 'client.sessions_closed', 'summary.completed', 'billable_item.invoice_sent')),
	CONSTRAINT "webhooks_url_check" CHECK ("webhooks"."url" ~ '^https://')
);
--> statement-breakpoint
CREATE TABLE "appointment_calendar_sequences" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_calendar_sequences_check" CHECK ("appointment_calendar_sequences"."sequence" >= 0)
);
--> statement-breakpoint
CREATE TABLE "calendar_feed_tokens" (
	"coach_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feed_tokens_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "communications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"channel" text NOT NULL,
	"template" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text DEFAULT '' NOT NULL,
	"calendar" text,
	"calendar_method" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider_message_id" text,
	"sent_at" timestamp(3) with time zone,
	"error" text,
	"appointment_id" uuid,
	"client_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "communications_channel_check" CHECK ("communications"."channel" IN ('email', 'sms')),
	CONSTRAINT "communications_status_check" CHECK ("communications"."status" IN ('queued', 'sent', 'failed')),
	CONSTRAINT "communications_sent_check" CHECK ("communications"."status" <> 'sent' OR "communications"."sent_at" IS NOT NULL),
	CONSTRAINT "communications_attempts_check" CHECK ("communications"."attempts" >= 0),
	CONSTRAINT "communications_calendar_method_check" CHECK ("communications"."calendar_method" IS NULL OR "communications"."calendar_method" IN ('REQUEST', 'CANCEL'))
);
--> statement-breakpoint
CREATE TABLE "patient_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"anamnesis" text,
	"diagnosis" text,
	"medication" text,
	"goals" text,
	"recommendations" text,
	"notes" text,
	"sent_at" timestamp(3) with time zone,
	"completed_at" timestamp(3) with time zone,
	"canceled_at" timestamp(3) with time zone,
	"created_by_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_cards_status_check" CHECK ("patient_cards"."status" IN ('new', 'sent', 'completed', 'canceled')),
	CONSTRAINT "patient_cards_sent_check" CHECK ("patient_cards"."status" NOT IN ('sent', 'completed') OR "patient_cards"."sent_at" IS NOT NULL),
	CONSTRAINT "patient_cards_completed_check" CHECK ("patient_cards"."status" <> 'completed' OR "patient_cards"."completed_at" IS NOT NULL),
	CONSTRAINT "patient_cards_canceled_check" CHECK ("patient_cards"."status" <> 'canceled' OR "patient_cards"."canceled_at" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "appointment_summaries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"topics" text,
	"goals" text,
	"agreements" text,
	"next_steps" text,
	"notes" text,
	"completed_at" timestamp(3) with time zone,
	"author_id" uuid,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_summaries_status_check" CHECK ("appointment_summaries"."status" IN ('draft', 'completed')),
	CONSTRAINT "appointment_summaries_completed_check" CHECK (("appointment_summaries"."status" = 'completed') = ("appointment_summaries"."completed_at" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"sender_email" text NOT NULL,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"forwarded_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_category_check" CHECK ("support_messages"."category" IN ('technical', 'scheduling', 'billing', 'account', 'feedback', 'other')),
	CONSTRAINT "support_messages_subject_check" CHECK (char_length("support_messages"."subject") BETWEEN 1 AND 200),
	CONSTRAINT "support_messages_message_check" CHECK (char_length("support_messages"."message") BETWEEN 1 AND 5000)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"operation_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"response_body" jsonb,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("user_id","operation_id","key")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE TABLE "auth_device_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"address" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_emails_address_lower_check" CHECK ("auth_emails"."address" = lower("auth_emails"."address"))
);
--> statement-breakpoint
CREATE TABLE "auth_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"stash" jsonb NOT NULL,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"csrf_token" text NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_flows_name_check" CHECK ("auth_flows"."name" IN ('login', 'registration', 'profile', 'token_exchange'))
);
--> statement-breakpoint
CREATE TABLE "auth_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_user_id" text NOT NULL,
	"email" text,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_otp_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"secret_encrypted" text NOT NULL,
	"last_used_step" bigint,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_passcodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_id" uuid,
	"user_id" uuid,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"try_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL,
	"resend_after" timestamp(3) with time zone NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_passcodes_try_count_check" CHECK ("auth_passcodes"."try_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "auth_password_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_secret_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"user_agent" text,
	"ip_address" text,
	"last_used" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp(3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"algorithm" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_usernames" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"username" text NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_webauthn_credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text,
	"public_key" text NOT NULL,
	"attestation_type" text NOT NULL,
	"aaguid" text NOT NULL,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"backup_eligible" boolean DEFAULT false NOT NULL,
	"backup_state" boolean DEFAULT false NOT NULL,
	"mfa_only" boolean DEFAULT false NOT NULL,
	"last_used_at" timestamp(3) with time zone,
	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_webauthn_credentials_sign_count_check" CHECK ("auth_webauthn_credentials"."sign_count" >= 0),
	CONSTRAINT "auth_webauthn_credentials_name_check" CHECK ("auth_webauthn_credentials"."name" IS NULL OR char_length("auth_webauthn_credentials"."name") BETWEEN 3 AND 32)
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_coached_by_id_coaches_id_fk" FOREIGN KEY ("coached_by_id") REFERENCES "public"."coaches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_existing_client_of_coach_id_coaches_id_fk" FOREIGN KEY ("existing_client_of_coach_id") REFERENCES "public"."coaches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availabilities" ADD CONSTRAINT "availabilities_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availabilities" ADD CONSTRAINT "availabilities_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability_overrides" ADD CONSTRAINT "availability_overrides_availability_id_availabilities_id_fk" FOREIGN KEY ("availability_id") REFERENCES "public"."availabilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_billing_rule_id_billing_rules_id_fk" FOREIGN KEY ("billing_rule_id") REFERENCES "public"."billing_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_items" ADD CONSTRAINT "billable_items_approved_by_id_users_id_fk" FOREIGN KEY ("approved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_calendar_sequences" ADD CONSTRAINT "appointment_calendar_sequences_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feed_tokens" ADD CONSTRAINT "calendar_feed_tokens_coach_id_coaches_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."coaches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communications" ADD CONSTRAINT "communications_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_cards" ADD CONSTRAINT "patient_cards_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_summaries" ADD CONSTRAINT "appointment_summaries_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_device_tokens" ADD CONSTRAINT "auth_device_tokens_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_emails" ADD CONSTRAINT "auth_emails_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_identities" ADD CONSTRAINT "auth_identities_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_otp_secrets" ADD CONSTRAINT "auth_otp_secrets_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_passcodes" ADD CONSTRAINT "auth_passcodes_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_password_credentials" ADD CONSTRAINT "auth_password_credentials_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_usernames" ADD CONSTRAINT "auth_usernames_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_webauthn_credentials" ADD CONSTRAINT "auth_webauthn_credentials_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_meeting_code_coach_key" ON "appointments" USING btree ("meeting_code_coach");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_meeting_code_client_key" ON "appointments" USING btree ("meeting_code_client");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_client_number_key" ON "appointments" USING btree ("client_id","appointment_number");--> statement-breakpoint
CREATE INDEX "appointments_start_idx" ON "appointments" USING btree ("start_date","id");--> statement-breakpoint
CREATE INDEX "appointments_coach_start_idx" ON "appointments" USING btree ("coach_id","start_date","id");--> statement-breakpoint
CREATE INDEX "appointments_client_start_idx" ON "appointments" USING btree ("client_id","start_date","id");--> statement-breakpoint
CREATE INDEX "appointments_type_start_idx" ON "appointments" USING btree ("appointment_type","start_date","id");--> statement-breakpoint
CREATE INDEX "appointments_client_type_live_idx" ON "appointments" USING btree ("client_id","appointment_type") WHERE "appointments"."cancelled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "appointments_provisional_idx" ON "appointments" USING btree ("provisional_until") WHERE "appointments"."is_provisional" AND "appointments"."cancelled_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_code_key" ON "campaigns" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_user_id_key" ON "clients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "clients" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "clients_updated_at_idx" ON "clients" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "clients_last_name_idx" ON "clients" USING btree ("last_name","first_name");--> statement-breakpoint
CREATE INDEX "clients_first_name_idx" ON "clients" USING btree ("first_name");--> statement-breakpoint
CREATE INDEX "clients_year_of_birth_idx" ON "clients" USING btree ("year_of_birth");--> statement-breakpoint
CREATE INDEX "clients_coached_by_idx" ON "clients" USING btree ("coached_by_id","created_at");--> statement-breakpoint
CREATE INDEX "clients_campaign_idx" ON "clients" USING btree ("campaign");--> statement-breakpoint
CREATE INDEX "clients_insurer_idx" ON "clients" USING btree ("insurer");--> statement-breakpoint
CREATE INDEX "clients_email_idx" ON "clients" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "coaches_email_key" ON "coaches" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "coaches_last_name_idx" ON "coaches" USING btree ("last_name","first_name");--> statement-breakpoint
CREATE INDEX "events_occurred_idx" ON "events" USING btree ("occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_appointment_idx" ON "events" USING btree ("appointment_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_client_idx" ON "events" USING btree ("client_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_coach_idx" ON "events" USING btree ("coach_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_actor_idx" ON "events" USING btree ("actor_user_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_important_idx" ON "events" USING btree ("occurred_at" DESC NULLS LAST) WHERE "events"."important";--> statement-breakpoint
CREATE UNIQUE INDEX "insurers_name_key" ON "insurers" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "users_auth_subject_key" ON "users" USING btree ("auth_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "users_activation_code_key" ON "users" USING btree ("activation_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "users_coach_id_key" ON "users" USING btree ("coach_id") WHERE "users"."coach_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "availabilities_coach_window_idx" ON "availabilities" USING btree ("coach_id","series_start","series_end");--> statement-breakpoint
CREATE INDEX "availabilities_window_idx" ON "availabilities" USING btree ("series_start","series_end");--> statement-breakpoint
CREATE INDEX "availabilities_kind_idx" ON "availabilities" USING btree ("kind","coach_id");--> statement-breakpoint
CREATE UNIQUE INDEX "availability_overrides_occurrence_key" ON "availability_overrides" USING btree ("availability_id","occurrence_date");--> statement-breakpoint
CREATE INDEX "availability_overrides_start_idx" ON "availability_overrides" USING btree ("start_date");--> statement-breakpoint
CREATE INDEX "billing_rules_position_idx" ON "billing_rules" USING btree ("position");--> statement-breakpoint
CREATE INDEX "billing_rules_active_position_idx" ON "billing_rules" USING btree ("active","position");--> statement-breakpoint
CREATE UNIQUE INDEX "billable_items_live_appointment_key" ON "billable_items" USING btree ("appointment_id") WHERE "billable_items"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "billable_items_service_date_idx" ON "billable_items" USING btree ("service_date" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "billable_items_status_idx" ON "billable_items" USING btree ("status","service_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_coach_idx" ON "billable_items" USING btree ("coach_id","service_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_client_idx" ON "billable_items" USING btree ("client_id","service_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billable_items_rule_idx" ON "billable_items" USING btree ("billing_rule_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhooks_type_key" ON "webhooks" USING btree ("type");--> statement-breakpoint
CREATE INDEX "communications_appointment_idx" ON "communications" USING btree ("appointment_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "communications_client_idx" ON "communications" USING btree ("client_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "communications_queued_idx" ON "communications" USING btree ("created_at") WHERE "communications"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "patient_cards_live_appointment_key" ON "patient_cards" USING btree ("appointment_id") WHERE "patient_cards"."status" <> 'canceled';--> statement-breakpoint
CREATE INDEX "patient_cards_client_idx" ON "patient_cards" USING btree ("client_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "patient_cards_status_idx" ON "patient_cards" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_summaries_appointment_key" ON "appointment_summaries" USING btree ("appointment_id");--> statement-breakpoint
CREATE INDEX "appointment_summaries_status_idx" ON "appointment_summaries" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "support_messages_created_idx" ON "support_messages" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_messages_user_idx" ON "support_messages" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_device_tokens_token_key" ON "auth_device_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_device_tokens_user_idx" ON "auth_device_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_emails_address_key" ON "auth_emails" USING btree ("address");--> statement-breakpoint
CREATE INDEX "auth_emails_user_idx" ON "auth_emails" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_emails_one_primary_key" ON "auth_emails" USING btree ("user_id") WHERE "auth_emails"."is_primary";--> statement-breakpoint
CREATE INDEX "auth_flows_expires_idx" ON "auth_flows" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_identities_provider_user_key" ON "auth_identities" USING btree ("provider","provider_user_id");--> statement-breakpoint
CREATE INDEX "auth_identities_user_idx" ON "auth_identities" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_otp_secrets_user_key" ON "auth_otp_secrets" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_passcodes_flow_idx" ON "auth_passcodes" USING btree ("flow_id");--> statement-breakpoint
CREATE INDEX "auth_passcodes_expires_idx" ON "auth_passcodes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_password_credentials_user_key" ON "auth_password_credentials" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_expires_idx" ON "auth_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_usernames_username_key" ON "auth_usernames" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_usernames_user_key" ON "auth_usernames" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_webauthn_credentials_user_idx" ON "auth_webauthn_credentials" USING btree ("user_id");