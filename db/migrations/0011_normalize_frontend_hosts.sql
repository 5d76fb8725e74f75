-- Hand-written: every frontend host in the one spelling lib/environments/frontend-host.ts
-- gives new ones, so that the primary key of environment_frontend_hosts decides per origin,
-- not per string ("acme.test" and "acme.test:443" were two hosts). The database does not
-- know PUBLIC_URL's scheme, so both default ports go: no deployment serves https on :80 or
-- http on :443, so an entry naming either only ever meant the scheme's default. Lower case
-- and a trailing dot are normalised too (the old validator refused them; direct writes may
-- not have). Where two environments held one host in two spellings the oldest keeps it, as
-- in 0004. The owners table is emptied, then refilled by its sync trigger, which the UPDATE
-- of every environment's frontend_hosts fires: no row of an old spelling is left to collide.
DELETE FROM "environment_frontend_hosts";--> statement-breakpoint
WITH "spelled" AS (
  SELECT e."id" AS "environment_id", e."created_at", t."n",
    regexp_replace(regexp_replace(lower(t."host"), ':(80|443)$', ''), '\.(:[0-9]+)?$', '\1') AS "host"
  FROM "environments" e CROSS JOIN LATERAL unnest(e."frontend_hosts") WITH ORDINALITY AS t("host", "n")
  WHERE t."host" IS NOT NULL
), "owners" AS (
  SELECT DISTINCT ON ("host") "host", "environment_id" FROM "spelled" ORDER BY "host", "created_at", "environment_id"
), "kept" AS (
  SELECT s."environment_id", s."host", min(s."n") AS "n"
  FROM "spelled" s JOIN "owners" o ON o."host" = s."host" AND o."environment_id" = s."environment_id"
  GROUP BY s."environment_id", s."host"
)
UPDATE "environments" e SET "frontend_hosts" = ARRAY(SELECT k."host" FROM "kept" k WHERE k."environment_id" = e."id" ORDER BY k."n");
