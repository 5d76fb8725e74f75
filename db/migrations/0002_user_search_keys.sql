-- Substring search looks its candidates up by a key with punctuation replaced by a
-- letter (searchKey in db/schema.ts): pg_trgm cuts words at punctuation, so a term
-- such as "m.ma" matched a seventh of all users in the plain trigram index.
-- Building these on a large users table takes a while (about 20 s per million rows).
DROP INDEX "users_email_trgm_idx";--> statement-breakpoint
DROP INDEX "users_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_email_search_idx" ON "users" USING gin (regexp_replace(lower("email"), '[^[:alnum:]]+', 'q', 'g') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_search_idx" ON "users" USING gin (regexp_replace(lower("name"), '[^[:alnum:]]+', 'q', 'g') gin_trgm_ops);