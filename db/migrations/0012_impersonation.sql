ALTER TABLE "sessions" ADD COLUMN "impersonator_type" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonator_id" text;