import { getDb } from "@/db/client";
import type { z } from "zod";
import type { Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { gatePageUrl } from "../hosted/hosted-flow";
import { findMembership, type ActingMember } from "../organizations/memberships";
import { enforceRateLimit } from "../rate-limit/enforce";
import { authorizeSession, pendingGate } from "../sessions/authorize-session";
import type { GateKey, SessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";
import { isRecentlyVerified } from "../sessions/reverification";
import type { AuthLevel, Infer, Operation, OrganizationScope, SessionLevel } from "./operation";
import type { RequestContext } from "./request-context";
import type { ResponseEffects } from "./response-effects";
import { SeeOther } from "./see-other";
import { assertStorableStrings } from "./json-body";
import { zodToAppError } from "./zod-errors";

type ZodOrNone = z.ZodType | undefined;

/**
 * Who is calling, as the route kit (from a Request) or the hosted action runner
 * (from a page's headers) resolved it, before the operation's auth level is applied.
 */
export interface Caller {
  environment: EnvironmentContext | null;
  session: ActiveSession | null;
  /** Set when the caller presented a valid secret key of `environment`. */
  secretKeyId?: string;
  context: RequestContext;
}

interface BaseInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  context: RequestContext;
  effects: ResponseEffects;
}

/** What a handler receives at each auth level: the level decides which facts are guaranteed. */
export type OperationInput<A extends AuthLevel, P, Q, B> = BaseInput<P, Q, B> &
  (A extends "secretKey"
    ? { environment: EnvironmentContext; actor: Actor }
    : A extends SessionLevel
      ? {
          environment: EnvironmentContext;
          session: ActiveSession;
          sessionState: SessionState;
          actor: Actor;
          /** The caller's membership, when the operation declares `organization.param` (see requireMembership). */
          membership?: ActingMember;
        }
      : A extends "publishableKey" | "optionalSession"
        ? { environment: EnvironmentContext; session: ActiveSession | null }
        : A extends "anyClient"
          ? { environment: EnvironmentContext | null; session: ActiveSession | null }
          : object);

export type OperationHandler<A extends AuthLevel, P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone> = (
  input: OperationInput<A, Infer<P>, Infer<Q>, Infer<B>>,
) => Promise<Infer<R> | SeeOther>;

/** An operation with its implementation: what the route kit serves and the hosted actions invoke. */
export interface Endpoint<
  P extends ZodOrNone = ZodOrNone,
  Q extends ZodOrNone = ZodOrNone,
  B extends ZodOrNone = ZodOrNone,
  R extends ZodOrNone = ZodOrNone,
  A extends AuthLevel = AuthLevel,
> {
  operation: Operation<P, Q, B, R, A>;
  handle: OperationHandler<A, P, Q, B, R>;
}

export function endpoint<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  operation: Operation<P, Q, B, R, A>,
  handle: OperationHandler<A, P, Q, B, R>,
): Endpoint<P, Q, B, R, A> {
  return { operation, handle };
}

export interface RawInput {
  params?: unknown;
  query?: unknown;
  /** The parsed JSON body (or form values); undefined when none was sent. */
  body?: unknown;
}

const SESSION_LEVELS: ReadonlySet<AuthLevel> = new Set<AuthLevel>(["pendingSession", "session", "sensitiveSession"]);

function requireEnvironment(caller: Caller): EnvironmentContext {
  if (!caller.environment) throw new AppError("environment_not_found", "No environment matches the X-API-Key header or the Host.");
  return caller.environment;
}

/** Applies the auth level to the caller: the facts the handler may rely on, or the error that stops it. */
async function authorize(level: AuthLevel, caller: Caller, clearsGate?: GateKey): Promise<Record<string, unknown>> {
  const { requestId } = caller.context;
  switch (level) {
    case "none":
      return {};
    case "anyClient":
      return { environment: caller.environment, session: caller.session };
    case "secretKey":
      if (!caller.environment || !caller.secretKeyId) throw new AppError("unauthorized", "Send a secret key as `Authorization: Bearer sk_...`.");
      return { environment: caller.environment, actor: { type: "secret_key", id: caller.secretKeyId, requestId } satisfies Actor };
    case "publishableKey":
      return { environment: requireEnvironment(caller), session: caller.session };
    case "optionalSession": {
      const environment = requireEnvironment(caller);
      // Signed out is an answer here; a PENDING session is refused as at the `session` level.
      if (caller.session) await authorizeSession(getDb(), environment, caller.session, "session");
      return { environment, session: caller.session };
    }
    case "pendingSession":
    case "session":
    case "sensitiveSession": {
      const environment = requireEnvironment(caller);
      const sessionState = await authorizeSession(getDb(), environment, caller.session, level, clearsGate);
      // authorizeSession has refused a missing session.
      const session = caller.session as ActiveSession;
      return { environment, session, sessionState, actor: { type: "user", id: session.user.id, requestId } satisfies Actor };
    }
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, location: "body" | "query" | "path"): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw zodToAppError(result.error, location);
  return result.data;
}

/**
 * The organization check of an operation (OrganizationScope): feature on, caller a
 * member of the named organization, holding the declared permission.
 */
async function authorizeOrganization(scope: OrganizationScope, granted: Record<string, unknown>, params: unknown): Promise<ActingMember | undefined> {
  const environment = granted.environment as EnvironmentContext | undefined;
  const session = granted.session as ActiveSession | undefined;
  if (!environment || !session) throw new Error("an organization operation needs a session auth level");
  if (!environment.settings.organizations.enabled) {
    throw new AppError("forbidden", "Organizations are turned off in this environment (settings.organizations.enabled).");
  }
  if (!scope.param) return undefined;
  const organizationId = (params as Record<string, unknown> | undefined)?.[scope.param];
  if (typeof organizationId !== "string") throw new Error(`the operation's params have no ${scope.param}`);
  const membership = await findMembership(getDb(), environment.id, organizationId, session.user.id);
  if (!membership) throw new AppError("resource_not_found", "No organization with this id.");
  if (scope.permission && !membership.permissions.includes(scope.permission)) {
    throw new AppError("forbidden", `Your role in this organization lacks the ${scope.permission} permission.`, {
      properties: { permission: scope.permission },
    });
  }
  return { ...membership, recentSignIn: isRecentlyVerified(environment, session) };
}

/** The membership the pipeline resolved for an operation that declares `organization.param`. */
export function requireMembership(input: { membership?: ActingMember }): ActingMember {
  if (!input.membership) throw new Error("the operation declares no organization param");
  return input.membership;
}

/**
 * Runs an operation for a resolved caller: auth level, input schemas, declared rate
 * limits, then the handler. The route kit and the hosted action runner both call
 * this, so a form can do nothing the API would refuse.
 */
export async function executeOperation<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  target: Endpoint<P, Q, B, R, A>,
  caller: Caller,
  raw: RawInput,
  effects: ResponseEffects,
): Promise<Infer<R> | SeeOther> {
  const { operation } = target;
  const granted = await authorize(operation.auth, caller, operation.clearsGate).catch((error: unknown) => {
    const gate = operation.pendingNavigatesToGate && caller.context.acceptsHtml ? pendingGate(error) : null;
    if (gate && caller.environment) return new SeeOther(gatePageUrl(caller.environment, caller.context.host, gate));
    throw error;
  });
  // A PENDING session's browser navigation, sent on to its gate's page (Operation.pendingNavigatesToGate).
  if (granted instanceof SeeOther) return granted;
  const params = parse(operation.params, raw.params ?? {}, "path");
  // Query strings and the hosted actions' form fields never pass json-body's checks: a NUL
  // in a search text or an organization name would reach Postgres as a 500.
  assertStorableStrings(raw);
  const query = parse(operation.query, raw.query ?? {}, "query");
  // Only an absent body means "no fields"; a JSON `null` is a wrong type like any other.
  const body = operation.body ? parse(operation.body, raw.body === undefined ? {} : raw.body, "body") : undefined;
  const membership = operation.organization ? await authorizeOrganization(operation.organization, granted, params) : undefined;
  if (operation.rateLimits && caller.environment) {
    for (const rule of operation.rateLimits) {
      const identifier = rule.per === "user" && SESSION_LEVELS.has(operation.auth) ? caller.session?.user.id : undefined;
      await enforceRateLimit(getDb(), caller.environment, rule.action, caller.context, identifier);
    }
  }
  const input = { ...granted, ...(membership ? { membership } : {}), params, query, body, context: caller.context, effects };
  return target.handle(input as OperationInput<A, Infer<P>, Infer<Q>, Infer<B>>);
}
