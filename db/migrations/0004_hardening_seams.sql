CREATE TABLE "environment_frontend_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_id" uuid,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_until" timestamp (6) with time zone,
	"claimed_by" text,
	"last_error" text,
	"finished_at" timestamp (6) with time zone,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "email_addresses_user_idx";--> statement-breakpoint
DROP INDEX "email_addresses_environment_email_idx";--> statement-breakpoint
ALTER TABLE "email_addresses" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "on_behalf_of_type" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "on_behalf_of_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "amr" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "aal" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "authenticated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "reverified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "environment_frontend_hosts" ADD CONSTRAINT "environment_frontend_hosts_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_frontend_hosts_environment_idx" ON "environment_frontend_hosts" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE finished_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_idx" ON "jobs" USING btree ("singleton_key") WHERE finished_at is null;--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE finished_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_verified_email_idx" ON "email_addresses" USING btree ("environment_id","email") WHERE verified_at IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_user_email_idx" ON "email_addresses" USING btree ("user_id","email");--> statement-breakpoint
CREATE INDEX "email_addresses_environment_email_idx" ON "email_addresses" USING btree ("environment_id","email");--> statement-breakpoint
-- Hand-written: sessions opened before amr existed were all opened by a password or an emailed code.
UPDATE "sessions" SET "amr" = '{pwd}', "authenticated_at" = "created_at",
  "reverified_at" = CASE WHEN "last_verified_at" > "created_at" + interval '1 second' THEN "last_verified_at" END;--> statement-breakpoint
-- Hand-written: exports requested before the jobs table existed were built by an in-process timer; queue them as jobs.
INSERT INTO "jobs" ("environment_id", "kind", "payload", "max_attempts") SELECT "environment_id", 'data_export', jsonb_build_object('dataRequestId', "id"), 5 FROM "data_requests" WHERE "status" = 'pending';
--> statement-breakpoint
-- Hand-written: addresses added before expiry existed lapse a day after they were added, as their links did.
UPDATE "email_addresses" AS a SET "expires_at" = a."created_at" + interval '24 hours' WHERE a."verified_at" IS NULL AND NOT EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = a."user_id" AND u."email" = a."email");
--> statement-breakpoint
-- Hand-written: each frontend host belongs to one environment (the oldest keeps a shared one); a trigger keeps the owners table in step with environments.frontend_hosts.
INSERT INTO "environment_frontend_hosts" ("host", "environment_id")
SELECT DISTINCT ON (h."host") h."host", e."id"
FROM "environments" e CROSS JOIN LATERAL unnest(e."frontend_hosts") AS h("host")
WHERE h."host" IS NOT NULL
ORDER BY h."host", e."created_at", e."id";--> statement-breakpoint
UPDATE "environments" e SET "frontend_hosts" = ARRAY(
  SELECT t."host" FROM unnest(e."frontend_hosts") WITH ORDINALITY AS t("host", "n")
  WHERE EXISTS (SELECT 1 FROM "environment_frontend_hosts" f WHERE f."host" = t."host" AND f."environment_id" = e."id")
  ORDER BY t."n")
WHERE EXISTS (
  SELECT 1 FROM unnest(e."frontend_hosts") AS h("host")
  WHERE NOT EXISTS (SELECT 1 FROM "environment_frontend_hosts" f WHERE f."host" = h."host" AND f."environment_id" = e."id"));--> statement-breakpoint
-- Keeps the table equal to each environment's frontend_hosts. A host another environment
-- holds fails the insert on the primary key (SQLSTATE 23505), also when both writers race.
CREATE FUNCTION "environment_frontend_hosts_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "environment_frontend_hosts"
    WHERE "environment_id" = NEW."id" AND NOT ("host" = ANY (NEW."frontend_hosts"));
  INSERT INTO "environment_frontend_hosts" ("host", "environment_id")
    SELECT DISTINCT h."host", NEW."id" FROM unnest(NEW."frontend_hosts") AS h("host")
    WHERE h."host" IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM "environment_frontend_hosts" f WHERE f."host" = h."host" AND f."environment_id" = NEW."id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "environments_frontend_hosts_sync" AFTER INSERT OR UPDATE OF "frontend_hosts" ON "environments"
  FOR EACH ROW EXECUTE FUNCTION "environment_frontend_hosts_sync"();
