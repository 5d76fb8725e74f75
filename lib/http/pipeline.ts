import { getDb } from "@/db/client";
import type { z } from "zod";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { gatePageUrl } from "../flows/hosted-flow";
import { findMembership, type ActingMember } from "../organizations/memberships";
import { enforceRateLimit } from "../rate-limit/enforce";
import { authorizeSession, pendingGate } from "../sessions/authorize-session";
import type { ActiveSession } from "../sessions/resolve-session";
import { sessionActor } from "../sessions/impersonator";
import { isRecentlyVerified } from "../sessions/reverification";
import { operatorMay, operatorOwesSecondFactor, type Caller, type OperatorIdentity, type OperatorPermission, type PresentedCredentials, type ServerCaller } from "../operation/caller";
import { serverActor, type Endpoint, type OperationInput, type RawInput } from "../operation/endpoint";
import type { AuthLevel, Infer, Operation, OrganizationScope } from "../operation/operation";
import type { ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import type { StreamedBody } from "../operation/streamed-body";
import { assertStorableStrings } from "./json-body";
import { zodToAppError } from "./zod-errors";

type ZodOrNone = z.ZodType | undefined;
type AnyOperation = Operation<ZodOrNone, ZodOrNone, ZodOrNone, ZodOrNone, AuthLevel>;

const SESSION_LEVELS: ReadonlySet<AuthLevel> = new Set<AuthLevel>(["pendingSession", "session", "sensitiveSession"]);

function requireEnvironment(presented: PresentedCredentials): EnvironmentContext {
  if (!presented.environment) throw new AppError("environment_not_found", "No environment matches the X-API-Key header or the Host.");
  return presented.environment;
}

/**
 * The Server API's caller: a secret key of the environment, or a dashboard operator
 * acting in it whose role grants what the operation declares (a viewer reads, and
 * never sees a secret) and who, in production, holds a second factor for anything
 * beyond reading (operatorOwesSecondFactor). Refused alike through the API and a dashboard form.
 */
function authorizeServer(presented: PresentedCredentials, permission: OperatorPermission): ServerCaller {
  const { environment, operator, secretKeyId } = presented;
  if (environment && operator) return { kind: "operator", environment, operator: authorizeOperator(operator, permission) };
  if (environment && secretKeyId) return { kind: "secretKey", environment, keyId: secretKeyId };
  throw new AppError("unauthorized", "Send a secret key as `Authorization: Bearer sk_...`.");
}

/**
 * The one check of a dashboard operator's role against what an operation declares,
 * for Server API operations run in an environment and dashboard-only `operator` ones
 * alike.
 */
function authorizeOperator(operator: OperatorIdentity, permission: OperatorPermission): OperatorIdentity {
  if (!operatorMay(operator.role, permission)) {
    throw new AppError("forbidden", `The ${operator.role} role may not do this (it needs the ${permission} permission).`, {
      properties: { permission },
    });
  }
  if (operatorOwesSecondFactor(operator, permission)) {
    throw new AppError("operator_second_factor_required", "In production an owner or admin changes things only in a session opened with their second factor: add one at /dashboard/account, or sign in again with it.", {
      properties: { permission },
    });
  }
  return operator;
}

/** Applies the auth level to the caller: the facts the handler may rely on, or the error that stops it. */
async function authorize(operation: AnyOperation, presented: PresentedCredentials): Promise<Record<string, unknown>> {
  const { requestId } = presented.context;
  const level = operation.auth;
  switch (level) {
    case "none":
      return {};
    case "anyClient":
      return { environment: presented.environment, session: presented.session };
    case "server": {
      // A server operation always declares its operator permission (lib/operation/operation.ts).
      const caller = authorizeServer(presented, operation.operatorPermission as OperatorPermission);
      return { environment: caller.environment, caller, actor: serverActor(caller, requestId) };
    }
    case "operator": {
      // Dashboard-only: no environment, and never reached over HTTP (route() refuses the level).
      if (!presented.operator) throw new AppError("unauthorized", "Sign in to the dashboard.");
      const operator = authorizeOperator(presented.operator, operation.operatorPermission as OperatorPermission);
      return { operator, actor: { type: "operator", id: operator.id, requestId } };
    }
    case "publishableKey":
      return { environment: requireEnvironment(presented), session: presented.session };
    case "optionalSession": {
      const environment = requireEnvironment(presented);
      // Signed out is an answer here; a PENDING session is refused as at the `session` level.
      if (presented.session) await authorizeSession(getDb(), environment, presented.session, "session");
      return { environment, session: presented.session };
    }
    case "pendingSession":
    case "session":
    case "sensitiveSession": {
      const environment = requireEnvironment(presented);
      const sessionState = await authorizeSession(getDb(), environment, presented.session, level, operation);
      // authorizeSession has refused a missing session.
      const session = presented.session as ActiveSession;
      const caller = { kind: "user", environment, session } satisfies Caller;
      // The one place a session caller's actor is built: during an impersonation it names the impersonator (onBehalfOf).
      return { environment, caller, session, sessionState, actor: sessionActor(session, requestId) };
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

/**
 * Runs an operation for what a caller presented: auth level (and an operator's
 * permission), input schemas, the organization scope, declared rate limits, then
 * the handler. The route kit and the action runners (hosted forms, the dashboard)
 * all call this, so a form can do nothing the API would refuse.
 */
export async function executeOperation<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  target: Endpoint<P, Q, B, R, A>,
  presented: PresentedCredentials,
  raw: RawInput,
  effects: ResponseEffects,
): Promise<Infer<R> | SeeOther | StreamedBody> {
  const { operation } = target;
  const granted = await authorize(operation, presented).catch((error: unknown) => {
    const gate = operation.pendingNavigatesToGate && presented.context.acceptsHtml ? pendingGate(error) : null;
    if (gate && presented.environment) return new SeeOther(gatePageUrl(presented.environment, presented.context.host, gate));
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
  if (membership) granted.caller = { ...(granted.caller as object), member: membership };
  if (operation.rateLimits && presented.environment) {
    for (const rule of operation.rateLimits) {
      const identifier = rule.per === "user" && SESSION_LEVELS.has(operation.auth) ? presented.session?.user.id : undefined;
      await enforceRateLimit(getDb(), presented.environment, rule.action, presented.context, identifier);
    }
  }
  const input = { ...granted, ...(membership ? { membership } : {}), params, query, body, stream: raw.stream, context: presented.context, effects };
  return target.handle(input as OperationInput<A, Infer<P>, Infer<Q>, Infer<B>>);
}
