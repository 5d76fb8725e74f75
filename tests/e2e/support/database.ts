import { and, eq, isNull, sql } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { sessions } from "@/db/schema";
import { e2eRun } from "./run-settings";

/**
 * Moves every live session's last password proof of a user back in time, so a test
 * can reach "signed in, but not recently" without waiting out the window.
 * Postgres runs only: under PGlite the server process holds the database.
 */
export async function ageSignIn(userId: string, seconds: number): Promise<void> {
  const url = e2eRun().databaseUrl;
  if (!url) throw new Error("ageSignIn needs the e2e run's Postgres database");
  const handle = openDatabase({ url, poolSize: 1 });
  try {
    const aged = await handle.db
      .update(sessions)
      .set({ lastVerifiedAt: sql`${sessions.lastVerifiedAt} - make_interval(secs => ${seconds})` })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (aged.length === 0) throw new Error(`no live session of user ${userId} to age`);
  } finally {
    await handle.close();
  }
}

/**
 * Inserts `count` users into an environment in one statement (addresses
 * `{tag}-{n}@bulk.example`, newest last), for the users list's search at scale.
 * Postgres runs only, like ageSignIn.
 */
export async function seedUsers(environmentId: string, tag: string, count: number): Promise<void> {
  const url = e2eRun().databaseUrl;
  if (!url) throw new Error("seedUsers needs the e2e run's Postgres database");
  const handle = openDatabase({ url, poolSize: 1 });
  try {
    await handle.db.execute(sql`
      insert into users (environment_id, email, first_name, last_name, created_at, updated_at)
      select ${environmentId}::uuid, ${tag} || '-' || n || '@bulk.example', 'Seed', 'User ' || n,
             now() - make_interval(secs => ${count} - n), now() - make_interval(secs => ${count} - n)
      from generate_series(1, ${count}) as n`);
  } finally {
    await handle.close();
  }
}
