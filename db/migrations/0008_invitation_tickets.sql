-- The mail ticket: a second invitation secret that only the emailed link carries, so
-- the inviter's API token can no longer create a verified account for the invitee's
-- address. Rows from before stay NULL: accept by token still works for them, sign-up
-- from them does not (Postgres unique indexes admit any number of NULLs).
ALTER TABLE "organization_invitations" ADD COLUMN "ticket_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invitations_ticket_idx" ON "organization_invitations" USING btree ("ticket_hash");