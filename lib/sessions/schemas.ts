import { z } from "zod";
import { pageSchema } from "../users/schemas";

export const sessionSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid(),
    status: z.enum(["active", "revoked", "expired"]),
    createdAt: z.iso.datetime(),
    lastActiveAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
    userAgent: z.string().nullable(),
    ipAddress: z.string().nullable(),
  })
  .meta({ id: "Session", description: "A sign-in session. `expired` is reported once expiresAt has passed." });

export type SessionView = z.output<typeof sessionSchema>;

export const sessionPageSchema = pageSchema(sessionSchema, "SessionPage");

export const sessionParams = z.object({
  userId: z.uuid("must be a UUID"),
  sessionId: z.uuid("must be a UUID"),
});

export const revokeAllResultSchema = z
  .object({ revokedCount: z.int().nonnegative() })
  .meta({ id: "RevokeAllSessionsResult" });
