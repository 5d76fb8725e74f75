import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { verifyPassword } from "../auth/password-hasher";
import { invalidCredentials } from "../auth/sign-in";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { ActiveSession } from "./resolve-session";

export const reverifyBody = z
  .strictObject({ password: z.string().min(1, "must not be empty").max(1024) })
  .meta({ id: "ReverifyRequest" });

export const reverifiedSchema = z
  .object({ lastVerifiedAt: z.iso.datetime(), validUntil: z.iso.datetime() })
  .meta({ id: "Reverified" });

/** Throws 403 reverification_required unless the session proved the password recently. */
export function assertRecentlyVerified(environment: EnvironmentContext, current: ActiveSession): void {
  const maxAge = environment.settings.sessions.reverificationSeconds * 1000;
  if (Date.now() - current.session.lastVerifiedAt.getTime() > maxAge) {
    throw new AppError("reverification_required", "Confirm your password first (POST /_svc/auth/reverify); this action needs a recent sign-in.");
  }
}

/** Proves the password again inside an existing session, opening the window for sensitive operations. */
export async function reverifySession(
  db: Database,
  environment: EnvironmentContext,
  current: ActiveSession,
  password: string,
  actor: Actor,
) {
  const hash = current.user.passwordHash;
  if (!hash || !(await verifyPassword(hash, password).catch(() => false))) throw invalidCredentials();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ lastVerifiedAt: now }).where(eq(sessions.id, current.session.id));
    await recordEvent(tx, { environmentId: environment.id, type: "session.reverified", actor, subjectId: current.user.id });
  });
  const validUntil = new Date(now.getTime() + environment.settings.sessions.reverificationSeconds * 1000);
  return { lastVerifiedAt: now.toISOString(), validUntil: validUntil.toISOString() };
}
