import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";

/** Revokes every active session of a user; returns how many were revoked. */
export async function revokeAllUserSessions(db: Database, userId: string): Promise<number> {
  const revoked = await db
    .update(sessions)
    .set({ status: "revoked", revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), eq(sessions.status, "active")))
    .returning({ id: sessions.id });
  return revoked.length;
}
