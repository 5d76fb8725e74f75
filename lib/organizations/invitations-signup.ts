import type { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import { recordEvent } from "../audit/record-event";
import { hashPassword } from "../auth/password-hasher";
import { assertPasswordAllowed } from "../auth/password-policy";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import { establishSession, type Establishment } from "../sessions/establish-session";
import { assertEmailFree, emailTaken } from "../users/create-user";
import { presentedSecret } from "./invitation-secrets";
import { claimInvitation, findUsableInvitation, inClaimTransaction, joinFromInvitation } from "./invitations";
import type { signUpFromTicketBody } from "./invitations-schemas";

function splitName(name: string | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(" ") || null };
}

/**
 * Signs up from an invitation's mail ticket (only the emailed link carries it; the
 * inviter's API token is refused like an unknown ticket): the ticket proves the
 * mailbox, so the user is created verified, joins the organization with the
 * invitation's role and gets a session, in one transaction with the single-winner
 * claim of the invitation (inClaimTransaction: no user is made from an invitation
 * whose inviter can no longer offer its role). Open even where public sign-up is closed: the invitation
 * is the organization's own choice. An address that already has an account answers
 * 409 identifier_exists (that user signs in and accepts instead).
 */
export async function signUpFromTicket(
  db: Database,
  environment: EnvironmentContext,
  input: z.output<typeof signUpFromTicketBody>,
  context: RequestContext,
): Promise<Establishment> {
  if (!environment.settings.organizations.enabled) {
    throw new AppError("forbidden", "Organizations are turned off in this environment (settings.organizations.enabled).");
  }
  const ticket = presentedSecret(input.ticket, "signUp");
  const invitation = await findUsableInvitation(db, environment.id, ticket);
  await assertEmailFree(db, environment.id, invitation.email);
  await assertPasswordAllowed(environment.settings.passwordPolicy, input.password);
  const passwordHash = await hashPassword(input.password);
  try {
    return await inClaimTransaction(db, invitation, ticket, context.requestId, async (tx, held) => {
      const now = new Date();
      const [user] = await tx
        .insert(users)
        .values({
          environmentId: environment.id,
          email: invitation.email,
          emailVerifiedAt: now,
          passwordHash,
          ...splitName(input.name),
          lastSignInAt: now,
        })
        .returning();
      if (!user) throw new Error("user insert returned no row");
      await tx.insert(emailAddresses).values({ environmentId: environment.id, userId: user.id, email: invitation.email, verifiedAt: now });
      const actor = { type: "user", id: user.id, requestId: context.requestId } as const;
      await claimInvitation(tx, held, user.id);
      await recordEvent(tx, { environmentId: environment.id, type: "user.signed_up", actor, subjectId: user.id });
      await joinFromInvitation(tx, environment, invitation, user.id, actor);
      // The password was chosen here and the emailed ticket proved the mailbox.
      return establishSession(tx, environment, user, { methods: ["pwd", "ticket"] }, context);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
