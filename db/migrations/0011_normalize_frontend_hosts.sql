-- Hand-written: the part of the one spelling lib/environments/frontend-host.ts gives new
-- frontend hosts that does not depend on PUBLIC_URL: lower case and no trailing dot (the old
-- validator refused both; direct writes may not have). Which port is the default one is
-- PUBLIC_URL's (its explicit port, else its scheme's), which SQL cannot know: every boot
-- re-spells stored hosts with the PUBLIC_URL-aware function after the migrations
-- (lib/environments/respell-frontend-hosts.ts). Where two environments held one host in two
-- spellings the oldest keeps it, as in 0004. The owners table is emptied, then refilled by
-- its sync trigger, which the UPDATE of every environment's frontend_hosts fires: no row of
-- an old spelling is left to collide.
DELETE FROM "environment_frontend_hosts";--> statement-breakpoint
WITH "spelled" AS (
  SELECT e."id" AS "environment_id", e."created_at", t."n",
    regexp_replace(lower(t."host"), '\.(:[0-9]+)?$', '\1') AS "host"
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
