import type { z } from "zod";
import type { Actor } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import type { ActingMember } from "../organizations/memberships";
import type { SessionState } from "../sessions/gates";
import type { ActiveSession } from "../sessions/resolve-session";
import type { Caller, OperatorIdentity, ServerCaller } from "./caller";
import type { AuthLevel, Infer, Operation, SessionLevel } from "./operation";
import type { RequestContext } from "./request-context";
import type { ResponseEffects } from "./response-effects";
import type { SeeOther } from "./see-other";
import type { StreamedBody } from "./streamed-body";

type ZodOrNone = z.ZodType | undefined;

interface BaseInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The unread request body, for an operation that declares `streamBody`; undefined otherwise. */
  stream?: ReadableStream<Uint8Array>;
  context: RequestContext;
  effects: ResponseEffects;
}

/** What a handler receives at each auth level: the level decides which facts are guaranteed. */
export type OperationInput<A extends AuthLevel, P, Q, B> = BaseInput<P, Q, B> &
  (A extends "server"
    ? { environment: EnvironmentContext; caller: ServerCaller; actor: Actor }
    : A extends "operator"
      ? { operator: OperatorIdentity; actor: Actor }
      : A extends SessionLevel
      ? {
          environment: EnvironmentContext;
          caller: Extract<Caller, { kind: "user" }>;
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
) => Promise<Infer<R> | SeeOther | StreamedBody>;

/**
 * An operation with its implementation, defined in `lib/<domain>/…-endpoints.ts`:
 * what the route kit serves over HTTP and the action runners (hosted forms, the
 * dashboard's forms and pages) run, all through one pipeline (lib/http/pipeline.ts).
 */
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any endpoint, whatever its schemas
export type AnyEndpoint = Endpoint<any, any, any, any, AuthLevel>;

export function endpoint<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  operation: Operation<P, Q, B, R, A>,
  handle: OperationHandler<A, P, Q, B, R>,
): Endpoint<P, Q, B, R, A> {
  return { operation, handle };
}

/** An operation's input before the pipeline parses it. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  /** The parsed JSON body (or form values); undefined when none was sent. */
  body?: unknown;
  /** The unread body of a `streamBody` operation. */
  stream?: ReadableStream<Uint8Array>;
}

/** The membership the pipeline resolved for an operation that declares `organization.param`. */
export function requireMembership(input: { membership?: ActingMember }): ActingMember {
  if (!input.membership) throw new Error("the operation declares no organization param");
  return input.membership;
}

/** The actor an audit event names for a Server API caller: the secret key, or the operator. */
export function serverActor(caller: ServerCaller, requestId: string): Actor {
  return caller.kind === "secretKey"
    ? { type: "secret_key", id: caller.keyId, requestId }
    : { type: "operator", id: caller.operator.id, requestId };
}
