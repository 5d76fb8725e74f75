import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { emailAddresses, events, legalAcceptances, sessions, users } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { toSessionView } from "../sessions/serialize";
import { toClientUser } from "./serialize";

export const EXPORT_FORMAT_VERSION = 1;

/**
 * Everything Gatehouse stores about a user, minus secrets (password hash, token
 * hashes, codes) and private metadata, which the spec keeps server-only.
 */
export async function buildDataExport(db: Database, environment: EnvironmentContext, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`user ${userId} vanished before its export`);
  const [addresses, sessionRows, acceptances, history] = await Promise.all([
    db.select().from(emailAddresses).where(eq(emailAddresses.userId, userId)).orderBy(asc(emailAddresses.createdAt)),
    db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt)),
    db.select().from(legalAcceptances).where(eq(legalAcceptances.userId, userId)).orderBy(asc(legalAcceptances.acceptedAt)),
    db.select().from(events).where(eq(events.subjectId, userId)).orderBy(asc(events.createdAt)),
  ]);
  return {
    format: "gatehouse-user-export",
    version: EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    application: { environmentId: environment.id, name: environment.settings.branding.applicationName },
    user: { ...toClientUser(user), lastSignInAt: user.lastSignInAt?.toISOString() ?? null },
    emailAddresses: addresses.map((a) => ({ email: a.email, verifiedAt: a.verifiedAt?.toISOString() ?? null, createdAt: a.createdAt.toISOString() })),
    sessions: sessionRows.map(toSessionView),
    legalAcceptances: acceptances.map((a) => ({
      termsUrl: a.termsUrl,
      privacyUrl: a.privacyUrl,
      ipAddress: a.ipAddress,
      acceptedAt: a.acceptedAt.toISOString(),
    })),
    activity: history.map((e) => ({ type: e.type, at: e.createdAt.toISOString(), by: e.actorType })),
  };
}
