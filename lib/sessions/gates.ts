import { z } from "zod";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { hasAcceptedCurrentDocuments } from "../legal/legal-acceptance";
import { hasAnyFactor, readUserFactors } from "../mfa/user-factors";
import type { UserRow } from "../users/serialize";

export const GATE_KEYS = ["LEGAL_ACCEPTANCE", "EMAIL_VERIFICATION", "MFA_ENROLLMENT"] as const;
export type GateKey = (typeof GATE_KEYS)[number];

const gateSchema = z.object({ key: z.enum(GATE_KEYS) }).meta({ id: "Gate" });

export const sessionStateSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(["ACTIVE", "PENDING"]),
    gates: z.array(gateSchema),
    currentGate: gateSchema.optional(),
    actor: z
      .object({ sub: z.string().meta({ description: "The `actorId` the impersonation token named: who acts as the user." }) })
      .nullable()
      .optional()
      .meta({
        description:
          "Set while the session is an impersonation (POST /_svc/auth/session/impersonate): who acts as the user, as in the access tokens' `act` claim. Null (or absent) when the user acts themselves.",
      }),
  })
  .meta({ id: "SessionState", description: "PENDING while any gate is open; currentGate is the one to clear first." });

export type SessionState = z.output<typeof sessionStateSchema>;

/** The gates a user must clear before their session is ACTIVE, in the order to clear them. */
export async function openGates(db: Database, environment: EnvironmentContext, user: UserRow): Promise<GateKey[]> {
  const gates: GateKey[] = [];
  if (environment.settings.legal.requireConsent && !(await hasAcceptedCurrentDocuments(db, environment, user.id))) {
    gates.push("LEGAL_ACCEPTANCE");
  }
  if (environment.settings.signUp.requireEmailVerification && user.email && !user.emailVerifiedAt) {
    gates.push("EMAIL_VERIFICATION");
  }
  // A session that predates `mfa.required` (or a factor's removal by an operator)
  // stays PENDING until its user enrolls a factor.
  if (environment.settings.mfa.required && !hasAnyFactor(await readUserFactors(db, user.id))) {
    gates.push("MFA_ENROLLMENT");
  }
  return gates;
}

export async function sessionState(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  sessionId: string,
): Promise<SessionState> {
  const gates = (await openGates(db, environment, user)).map((key) => ({ key }));
  return {
    id: sessionId,
    status: gates.length > 0 ? "PENDING" : "ACTIVE",
    gates,
    ...(gates[0] ? { currentGate: gates[0] } : {}),
  };
}
