import { isProduction } from "../config/runtime";
import type { EnvironmentContext } from "../environments/context";
import type { ActingMember } from "../organizations/memberships";
import type { ActiveSession } from "../sessions/resolve-session";
import type { RequestContext } from "./request-context";

/**
 * Operator roles of the dashboard: `owner` may do everything and manage operators,
 * `admin` everything but operators, `viewer` only read, and never sees a secret.
 */
export const OPERATOR_ROLES = ["owner", "admin", "viewer"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * What a Server API operation asks of an operator (a secret key may do all of it):
 * `read` anything but secrets, `write` change things, `revealSecrets` read or mint
 * a secret (a new secret key, a webhook's signing secret), `manageOperators`.
 */
export const OPERATOR_PERMISSIONS = ["read", "write", "revealSecrets", "manageOperators"] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

const GRANTS: Record<OperatorRole, ReadonlySet<OperatorPermission>> = {
  owner: new Set(OPERATOR_PERMISSIONS),
  admin: new Set<OperatorPermission>(["read", "write", "revealSecrets"]),
  viewer: new Set<OperatorPermission>(["read"]),
};

export function operatorMay(role: OperatorRole, permission: OperatorPermission): boolean {
  return GRANTS[role].has(permission);
}

/** A dashboard operator as its session names them. */
export interface OperatorIdentity {
  id: string;
  email: string;
  role: OperatorRole;
  /**
   * Whether the operator holds a second factor (an authenticator app or a passkey)
   * that every sign-in of theirs must answer, read with their session on each request.
   */
  hasSecondFactor: boolean;
  /**
   * Whether this very session was opened with that second factor (its assurance
   * level is 2): what the production rule asks, since the account's factor says
   * nothing of a session that a password alone opened.
   */
  sessionProvedSecondFactor: boolean;
}

/** An owner or admin who holds no second factor: held to reading in production (operatorOwesSecondFactor). Viewers only read anyway. */
export function operatorLacksSecondFactor(operator: OperatorIdentity): boolean {
  return operator.role !== "viewer" && !operator.hasSecondFactor;
}

/** An owner or admin who holds a factor but whose session did not prove it (the session that enrolled it): sign in again with it. */
export function operatorSessionUnproven(operator: OperatorIdentity): boolean {
  return operator.role !== "viewer" && operator.hasSecondFactor && !operator.sessionProvedSecondFactor;
}

/**
 * The production rule of the dashboard: there, an owner or admin may change things
 * only in a session opened with their second factor (`operator_second_factor_required`
 * for anything more than reading otherwise), so a stolen password alone cannot change
 * anything: not before the operator enrolls a factor, and not after either (a session
 * a password opened does not gain the factor added elsewhere). A staff SSO sign-in
 * does not count as a factor: the operator's own enrolled one does.
 */
export function operatorOwesSecondFactor(operator: OperatorIdentity, permission: OperatorPermission): boolean {
  return permission !== "read" && operator.role !== "viewer" && !operator.sessionProvedSecondFactor && isProduction();
}

/**
 * Who an operation runs for, once the pipeline has applied its auth level: a
 * signed-in end-user (with their membership when the operation is scoped to an
 * organization), the back-end with a secret key, or an operator of the dashboard
 * acting in one environment. Never a `null` that means "privileged": a rule that
 * treats the back-end differently switches on `kind`.
 */
export type Caller =
  | { kind: "user"; environment: EnvironmentContext; session: ActiveSession; member?: ActingMember }
  | { kind: "secretKey"; environment: EnvironmentContext; keyId: string }
  | { kind: "operator"; environment: EnvironmentContext; operator: OperatorIdentity };

/** The callers of the Server API's operations. */
export type ServerCaller = Extract<Caller, { kind: "secretKey" | "operator" }>;

/**
 * What the route kit (from a Request) or an action runner (from a page's headers or
 * the dashboard's session) found, before the operation's auth level is applied.
 */
export interface PresentedCredentials {
  environment: EnvironmentContext | null;
  session: ActiveSession | null;
  /** Set when the caller presented a valid secret key of `environment`. */
  secretKeyId?: string;
  /** Set when a signed-in dashboard operator acts in `environment`. */
  operator?: OperatorIdentity;
  context: RequestContext;
}
