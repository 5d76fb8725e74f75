import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { userIdentities, users } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { findIdentity } from "../identities/find-identity";
import { linkIdentity, recordIdentitySignIn } from "../identities/link-identity";
import type { ProviderProfile } from "../oauth/profile";
import type { RequestContext } from "../operation/request-context";
import { establishSession } from "../sessions/establish-session";
import type { UserRow } from "../users/serialize";
import { internalEnvironment } from "./internal-environment";
import { findOperatorByEmail, operatorOfUser } from "./operators";
import { operatorSignInStep, type OperatorSignInStep } from "./sign-in-operator";

/** What the staff identity provider asserted about the person signing in. */
export interface StaffSsoAssertion {
  /** The configured issuer (DASHBOARD_OIDC_ISSUER) the sign-in went through. */
  issuer: string;
  /** The provider's stable id of the account (`sub`). */
  subject: string;
  /** The address, only when the provider verified it (`email_verified: true`); else null. */
  verifiedEmail: string | null;
  name: string | null;
}

/**
 * The provider id staff identities are recorded under in the internal environment's
 * identities: one per issuer, so a `sub` is only ever compared with subjects of the
 * provider that issued it (two providers may both have an account "1234").
 */
export function staffSsoProviderId(issuer: string): string {
  return `staff-sso:${issuer}`;
}

function refused(detail: string): AppError {
  return new AppError("forbidden", detail);
}

/**
 * Staff single sign-on. An operator is matched by the provider's account, not by an
 * address: the first sign-in of an operator finds them by an address the provider
 * verified and records the account's (issuer, subject) as an identity of theirs
 * (lib/identities: the identity row, its event and the "account connected" notice
 * to the operator's address); every later sign-in is matched by that subject alone,
 * so the provider account keeps working through an address change at the provider,
 * and another provider account that now has (or claims) the operator's address is
 * refused: it is not the one the operator linked. Nobody is created: an address that
 * is no operator's is refused (403 forbidden).
 *
 * The session opens as a provider sign-in opens one for an end-user (method `oauth`,
 * with the identity's row held for it): a provider's sign-in is one factor, so an
 * operator who holds a second factor owes it here too (OperatorSignInStep).
 */
export async function signInOperatorWithSso(db: Database, assertion: StaffSsoAssertion, context: RequestContext): Promise<OperatorSignInStep> {
  const environment = await internalEnvironment(db);
  const providerId = staffSsoProviderId(assertion.issuer);
  const profile: ProviderProfile = {
    subject: assertion.subject,
    email: assertion.verifiedEmail,
    emailVerified: assertion.verifiedEmail !== null,
    name: assertion.name,
    firstName: null,
    lastName: null,
    picture: null,
    username: null,
  };
  const established = await db.transaction(async (tx) => {
    const linked = await findIdentity(tx, environment.id, providerId, assertion.subject);
    const userId = linked?.userId ?? (await operatorToLink(tx, assertion.verifiedEmail));
    // The user's row first, as linkIdentity and every factor change take it: they queue, never deadlock.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!user || user.environmentId !== environment.id || user.status !== "active" || !(await operatorOfUser(tx, user.id))) {
      throw refused("No operator has this account.");
    }
    const identityId = linked?.id ?? (await linkFirstIdentity(tx, environment, user, { providerId, profile }, context));
    await recordIdentitySignIn(tx, identityId, profile);
    return establishSession(tx, environment, user, { methods: ["oauth"] }, context);
  });
  return operatorSignInStep(db, environment, established, context);
}

/** The operator a first sign-in may link: the one whose address the provider verified. */
async function operatorToLink(db: Database, verifiedEmail: string | null): Promise<string> {
  const operator = verifiedEmail ? await findOperatorByEmail(db, verifiedEmail) : null;
  if (!operator) throw refused("No operator has this address, or the provider did not verify it.");
  return operator.userId;
}

/**
 * Links the provider account to the operator, unless another account of the same
 * provider is linked already: then this one only shares the address (an account
 * renamed to it, or one reissued to someone else) and is refused. Checked under the
 * user's row lock, so two first sign-ins of different accounts cannot both link.
 */
async function linkFirstIdentity(
  db: Database,
  environment: EnvironmentContext,
  user: UserRow,
  input: { providerId: string; profile: ProviderProfile },
  context: RequestContext,
): Promise<string> {
  const [other] = await db
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(and(eq(userIdentities.environmentId, environment.id), eq(userIdentities.providerId, input.providerId), eq(userIdentities.userId, user.id)))
    .limit(1);
  if (other) throw refused("Another account of the staff identity provider is linked to this operator.");
  const actor = { type: "user", id: user.id, requestId: context.requestId } as const;
  const { id } = await linkIdentity(db, environment, user, input, actor);
  return id;
}
