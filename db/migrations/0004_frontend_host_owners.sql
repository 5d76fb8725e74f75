CREATE TABLE "environment_frontend_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environment_frontend_hosts" ADD CONSTRAINT "environment_frontend_hosts_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "environment_frontend_hosts_environment_idx" ON "environment_frontend_hosts" USING btree ("environment_id");--> statement-breakpoint
-- Hand-written (drizzle-kit cannot express a trigger). Existing hosts go to their oldest
-- environment: before this migration two environments could list the same host.
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
