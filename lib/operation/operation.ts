import type { z } from "zod";
import type { ErrorCode } from "../errors";
import type { OrgPermission } from "../organizations/roles";
import type { LimitedAction } from "../rate-limit/enforce";
import type { GateKey } from "../sessions/gates";
import type { OperatorPermission } from "./caller";

/**
 * Who may call an operation (CONTRACT §2, STYLE rule 2), checked in one place
 * (lib/http/pipeline.ts) for the route kit and the hosted action runner alike:
 * - `server`: the Server API: a secret key of the environment, or a dashboard
 *   operator acting in it whose role grants the operation's `operatorPermission`;
 * - `publishableKey`: a Client API call in a known environment, signed in or not;
 * - `anyClient`: like publishableKey, but an unknown environment is "signed out",
 *   not an error (the boot probe always answers);
 * - `optionalSession`: like publishableKey, signed in or not, but a session that is
 *   presented must be ACTIVE: a PENDING one gets 403 session_pending, so it cannot
 *   pass its sign-in on before its gate is cleared (satellite sync);
 * - `pendingSession`: a live session, ACTIVE or PENDING: the operations that clear
 *   a gate (accept the terms, resend the verification link);
 * - `session`: an ACTIVE session; a PENDING one gets 403 session_pending;
 * - `sensitiveSession`: an ACTIVE session whose user proved a factor recently
 *   (sign-in or reverification) — credential, address, factor, identity and
 *   session-ending changes, deletion; else 403 reverification_required;
 * - `none`: public documents;
 * - `operator`: a dashboard operator, in no environment, whose role grants the
 *   operation's `operatorPermission`: the cross-environment operations (applications
 *   and their environments, lib/applications). They are dashboard-only: never served
 *   over HTTP (route() refuses them) and not in the public OpenAPI document, because
 *   the Server API's credential, a secret key, belongs to one environment and so can
 *   never be allowed to create, rename or delete environments.
 * A session opened by impersonation is refused every `sensitiveSession` operation,
 * and those that declare `impersonation: "refused"`, with 403 impersonation_forbidden.
 */
export type AuthLevel =
  | "server"
  | "publishableKey"
  | "anyClient"
  | "optionalSession"
  | "pendingSession"
  | "session"
  | "sensitiveSession"
  | "none"
  | "operator";

export type SessionLevel = "pendingSession" | "session" | "sensitiveSession";

/**
 * A rate limit the pipeline enforces before the handler runs: always per client
 * IP (IPv6 by /64), and per the signed-in user with `per: "user"`. Limits that
 * depend on what the rule finds (a code's owner, an email's account) stay in lib/.
 */
export interface RateLimitRule {
  action: LimitedAction;
  per?: "user";
}

/**
 * A Client API organization operation, checked by the pipeline before the handler
 * runs: the environment must have organizations enabled (else 403 forbidden); with
 * `param`, the signed-in caller must be a member of the organization that path
 * parameter names (else 404 resource_not_found: a non-member cannot tell an
 * organization exists), and with `permission`, their role must grant it (else 403
 * forbidden). The handler receives the caller's membership as `membership`.
 */
export interface OrganizationScope {
  param?: string;
  permission?: OrgPermission;
}

/** The fields every operation declares (see Operation). */
interface OperationFields<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
  A extends AuthLevel = AuthLevel,
> {
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. `/api/server/v1/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /**
   * The gate this operation clears: a PENDING session whose open gates include it
   * may call the operation at its `session` or `sensitiveSession` level (enrolling a
   * factor clears MFA_ENROLLMENT and is still a sensitive change).
   */
  clearsGate?: GateKey;
  /**
   * People reach this operation by navigating (a redirect from another site of
   * theirs), not from code: when a browser's navigation (Accept: text/html) is refused
   * for a PENDING session, it is sent (303) to the hosted page of the session's gate,
   * where it can be cleared, instead of being shown a raw 403 body. Code asking for
   * JSON keeps 403 session_pending. Nothing else of the operation runs either way.
   */
  pendingNavigatesToGate?: true;
  rateLimits?: RateLimitRule[];
  /**
   * `refused`: an impersonation session may not call it (403 impersonation_forbidden),
   * on top of every `sensitiveSession` operation, which it never may: what only the
   * user may do at a lower level (a data export, consent, reverification, renaming a
   * passkey, finishing an identity link). Checked by the pipeline (authorizeSession).
   */
  impersonation?: "refused";
  /** An organization operation of the Client API (session levels only); see OrganizationScope. */
  organization?: OrganizationScope;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The body may also arrive as a plain HTML form post, from a hosted page that must
   * work without JavaScript and cannot use a server action (a file download).
   */
  formBody?: true;
  /**
   * The body is a stream of lines, not one JSON document (a bulk import): the route
   * kit checks its media type and hands the handler the unread body as `stream`, so
   * a 100,000-line upload is never held in memory whole. `line` documents one line;
   * `first`, an optional first line. The 64 KiB limit of JSON bodies does not apply.
   */
  streamBody?: { contentType: "application/x-ndjson"; description: string; line: z.ZodType; first?: z.ZodType; example: string };
  /** 303: the operation always answers a browser navigating with a redirect (Location), never a body. */
  /**
   * `contentType`: a streamed answer (the handler returns a StreamedBody,
   * lib/operation/streamed-body.ts); `schema` then describes one line of it.
   */
  response: { status: 200 | 201 | 204 | 303; description: string; schema?: R; contentType?: "application/x-ndjson" };
  /**
   * Cache-Control of a successful response; `no-store` when omitted, since most
   * answers are per-user. Public documents (JWKS, discovery) set a max-age so
   * verifiers do not fetch them on every token. Error responses stay `no-store`.
   */
  cacheControl?: string;
  /** Error codes this operation can answer with, documented in OpenAPI. */
  errors: ErrorCode[];
}

/**
 * A `server` (or dashboard-only `operator`) operation declares what an operator's role
 * must grant to run it from the dashboard (lib/operation/caller.ts); the pipeline
 * checks it, so a form can never do what the role may not. Other levels have no operators.
 */
type OperatorClause<A extends AuthLevel> = A extends "server" | "operator" ? { operatorPermission: OperatorPermission } : { operatorPermission?: never };

/**
 * One API operation described once: the route kit and the action runners parse
 * with these schemas, enforce `auth`, `operatorPermission` and `rateLimits`, and the
 * OpenAPI document is generated from the very same objects.
 */
export type Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
  A extends AuthLevel = AuthLevel,
> = OperationFields<P, Q, B, R, A> & OperatorClause<A>;

export type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Whether an impersonation session is refused this operation: every credential,
 * address, factor, identity, session-ending and deletion change (`sensitiveSession`),
 * and whatever else declares `impersonation: "refused"`. The pipeline and the
 * OpenAPI document both ask this, so the refusal is documented where it applies.
 */
export function refusedDuringImpersonation(operation: { auth: AuthLevel; impersonation?: "refused" }): boolean {
  return operation.auth === "sensitiveSession" || operation.impersonation === "refused";
}

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  A extends AuthLevel = AuthLevel,
>(operation: Operation<P, Q, B, R, A>): Operation<P, Q, B, R, A> {
  return operation;
}
