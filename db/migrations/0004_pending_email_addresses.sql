DROP INDEX "email_addresses_user_idx";--> statement-breakpoint
DROP INDEX "email_addresses_environment_email_idx";--> statement-breakpoint
ALTER TABLE "email_addresses" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_verified_email_idx" ON "email_addresses" USING btree ("environment_id","email") WHERE verified_at IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "email_addresses_user_email_idx" ON "email_addresses" USING btree ("user_id","email");--> statement-breakpoint
CREATE INDEX "email_addresses_environment_email_idx" ON "email_addresses" USING btree ("environment_id","email");--> statement-breakpoint
-- Hand-written: pending addresses added before this migration lapse 24 hours after they were added (primaries never lapse).
UPDATE "email_addresses" AS a SET "expires_at" = a."created_at" + interval '24 hours' WHERE a."verified_at" IS NULL AND NOT EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = a."user_id" AND u."email" = a."email");
