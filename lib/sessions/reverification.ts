import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { verifyFactor } from "../auth/factors";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { AuthMethod } from "./establish-session";
import { impersonatorOf } from "./impersonator";
import type { ActiveSession } from "./resolve-session";

/**
 * A proof of the user's factors: the password, and with two-step verification on
 * a code as well (lib/auth/factors.ts decides what a user must give). Passkeys
 * prove themselves through their own ceremony endpoints (markReverified).
 */
export const reverifyBody = z
  .strictObject({
    password: z.string().min(1, "must not be empty").max(1024).optional().meta({ description: "Required when the user has a password." }),
    code: z
      .string()
      .min(1, "must not be empty")
      .max(64, "is too long")
      .optional()
      .meta({ description: "Required when two-step verification is on: a code of the authenticator app or a recovery code (which is spent)." }),
  })
  .meta({ id: "ReverifyRequest", description: "A proof of the user's factors." });

export type FactorProof = z.output<typeof reverifyBody>;

export const reverifiedSchema = z
  .object({ lastVerifiedAt: z.iso.datetime(), validUntil: z.iso.datetime() })
  .meta({ id: "Reverified" });

/**
 * Whether the session proved a factor within the environment's reverification
 * window. An impersonation never did: nobody proved the user's factors, so what
 * needs a recent sign-in (an owner's grant of the owner role, say) is out of its reach.
 */
export function isRecentlyVerified(environment: EnvironmentContext, current: ActiveSession): boolean {
  if (impersonatorOf(current.session)) return false;
  return Date.now() - current.session.lastVerifiedAt.getTime() <= environment.settings.sessions.reverificationSeconds * 1000;
}

/** 403 reverification_required: the answer to a sensitive action from a session that did not prove a factor recently. */
export function reverificationRequired(): AppError {
  return new AppError("reverification_required", "Confirm it's you first (POST /_svc/auth/reverify); this action needs a recent sign-in.");
}

/** Throws 403 reverification_required unless the session proved a factor recently. */
export function assertRecentlyVerified(environment: EnvironmentContext, current: ActiveSession): void {
  if (!isRecentlyVerified(environment, current)) throw reverificationRequired();
}

/** Proves a factor again inside an existing session, opening the window for sensitive operations. */
export async function reverifySession(db: Database, environment: EnvironmentContext, current: ActiveSession, proof: FactorProof, actor: Actor) {
  const method = await verifyFactor(db, environment, current.user, proof);
  return markReverified(db, environment, current, method, actor);
}

/**
 * Opens the reverification window after a factor was proven: by `reverifySession`,
 * or by a ceremony with its own endpoints (a passkey assertion).
 */
export async function markReverified(db: Database, environment: EnvironmentContext, current: ActiveSession, method: AuthMethod, actor: Actor) {
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({
        lastVerifiedAt: now,
        reverifiedAt: now,
        // amr lists each method once, in the order first proven.
        amr: sql`case when ${method} = any(${sessions.amr}) then ${sessions.amr} else array_append(${sessions.amr}, ${method}::text) end`,
      })
      .where(eq(sessions.id, current.session.id));
    await recordEvent(tx, { environmentId: environment.id, type: "session.reverified", actor, subjectId: current.user.id, data: { method } });
  });
  const validUntil = new Date(now.getTime() + environment.settings.sessions.reverificationSeconds * 1000);
  return { lastVerifiedAt: now.toISOString(), validUntil: validUntil.toISOString() };
}
