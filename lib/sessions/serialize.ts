import type { sessions } from "@/db/schema";
import type { SessionView } from "./schemas";

export type SessionRow = typeof sessions.$inferSelect;

export function sessionStatus(row: SessionRow, now = new Date()): SessionView["status"] {
  if (row.status === "revoked") return "revoked";
  return row.expiresAt <= now ? "expired" : "active";
}

export function toSessionView(row: SessionRow): SessionView {
  return {
    id: row.id,
    userId: row.userId,
    status: sessionStatus(row),
    createdAt: row.createdAt.toISOString(),
    lastActiveAt: row.lastActiveAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
  };
}
