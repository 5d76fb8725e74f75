ALTER TABLE "sessions" ADD COLUMN "amr" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "aal" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "authenticated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "reverified_at" timestamp with time zone;--> statement-breakpoint
-- Sessions opened before amr existed were all opened by a password or an emailed code.
UPDATE "sessions" SET "amr" = '{pwd}', "authenticated_at" = "created_at",
  "reverified_at" = CASE WHEN "last_verified_at" > "created_at" + interval '1 second' THEN "last_verified_at" END;
