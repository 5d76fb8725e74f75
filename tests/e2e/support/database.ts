import postgres from "postgres";
import { e2eRun } from "./run-settings";

/**
 * Moves every session of a user's last password proof back in time, so a test can
 * reach the state "signed in, but not recently" without waiting out the window.
 * Postgres runs only: under PGlite the server process holds the database.
 */
export async function ageSignIn(userId: string, seconds: number): Promise<void> {
  const url = e2eRun().databaseUrl;
  if (!url) throw new Error("ageSignIn needs the e2e run's Postgres database");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const aged = await sql`
      update sessions set last_verified_at = last_verified_at - make_interval(secs => ${seconds})
      where user_id = ${userId} and revoked_at is null`;
    if (aged.count === 0) throw new Error(`no live session of user ${userId} to age`);
  } finally {
    await sql.end();
  }
}
