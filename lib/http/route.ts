import type { z } from "zod";
import { getDb } from "@/db/client";
import type { Actor } from "../audit/record-event";
import { isProduction } from "../config/runtime";
import { resolveSecretKey } from "../environments/api-keys";
import type { EnvironmentContext } from "../environments/context";
import { findClientEnvironment } from "../environments/resolve-client-environment";
import { AppError } from "../errors";
import { assertRecentlyVerified } from "../sessions/reverification";
import { findActiveSession, type ActiveSession } from "../sessions/resolve-session";
import { assertOriginAllowed, corsHeaders, preflightHeaders } from "./cors";
import { mayRetryAfterFault, retryAfterPause, serviceUnavailableFor } from "./database-faults";
import { readJsonBody } from "./json-body";
import { logUnexpectedError } from "./log";
import type { AuthLevel, Infer, Operation } from "./operation";
import { problemResponse } from "./problem";
import { requestIdFor } from "./request-id";
import { SeeOther } from "./see-other";
import { zodToAppError } from "./zod-errors";

/** What Next.js passes as the second argument of a route handler. */
export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

export interface HandlerInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: Request;
  requestId: string;
  /** Headers to add to the response, e.g. Set-Cookie. */
  responseHeaders: Headers;
}

export interface SecretKeyInput<P, Q, B> extends HandlerInput<P, Q, B> {
  environment: EnvironmentContext;
  actor: Actor;
}

export interface ClientInput<P, Q, B> extends HandlerInput<P, Q, B> {
  environment: EnvironmentContext;
  /** The caller's session, when the request carries a live one for this environment. */
  session: ActiveSession | null;
}

export interface SessionInput<P, Q, B> extends ClientInput<P, Q, B> {
  session: ActiveSession;
  actor: Actor;
}

type ZodOrNone = z.ZodType | undefined;
type Handler<I, R> = (input: I) => Promise<Infer<R> | SeeOther>;
type AnyOperation = Operation<ZodOrNone, ZodOrNone, ZodOrNone, ZodOrNone, AuthLevel>;

interface Caller {
  environment?: EnvironmentContext | null;
}

/** A Server API route: the caller must present a secret key of the environment it acts in. */
export function serverRoute<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone>(
  operation: Operation<P, Q, B, R, "secretKey">,
  handler: Handler<SecretKeyInput<Infer<P>, Infer<Q>, Infer<B>>, R>,
): RouteHandler {
  return wrap(operation, async (request, requestId) => {
    const { environment, keyId } = await resolveSecretKey(getDb(), request.headers.get("authorization"));
    return { environment, actor: { type: "secret_key", id: keyId, requestId } satisfies Actor };
  }, handler);
}

/**
 * A Client API route (CONTRACT §2): the environment comes from `X-API-Key` or the
 * Host, browser Origins are checked, and the session is resolved if one is presented.
 */
export function clientRoute<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone>(
  operation: Operation<P, Q, B, R, "publishableKey">,
  handler: Handler<ClientInput<Infer<P>, Infer<Q>, Infer<B>>, R>,
): RouteHandler {
  return wrap(operation, (request) => resolveClientCaller(request), handler);
}

/**
 * A Client API route that needs a signed-in user: no live session is 401. A
 * `sensitiveSession` operation also needs a recent sign-in, else 403 reverification_required.
 */
export function sessionRoute<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone>(
  operation: Operation<P, Q, B, R, "session" | "sensitiveSession">,
  handler: Handler<SessionInput<Infer<P>, Infer<Q>, Infer<B>>, R>,
): RouteHandler {
  return wrap(operation, async (request, requestId) => {
    const caller = await resolveClientCaller(request);
    if (!caller.session) throw new AppError("unauthorized", "Sign in first: no valid session for this environment.");
    if (operation.auth === "sensitiveSession") assertRecentlyVerified(caller.environment, caller.session);
    const actor: Actor = { type: "user", id: caller.session.user.id, requestId };
    return { ...caller, session: caller.session, actor };
  }, handler);
}

/** A route anyone may call (discovery documents, the OpenAPI document). */
export function publicRoute<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone>(
  operation: Operation<P, Q, B, R, "none">,
  handler: Handler<HandlerInput<Infer<P>, Infer<Q>, Infer<B>>, R>,
): RouteHandler {
  return wrap(operation, async () => ({}), handler);
}

/** CORS preflight for Client API routes: answers only Origins the environment allows. */
export async function clientPreflight(request: Request): Promise<Response> {
  const environment = await findClientEnvironment(getDb(), request).catch(() => null);
  return new Response(null, { status: 204, headers: preflightHeaders(request, environment) });
}

async function resolveClientCaller(request: Request) {
  const db = getDb();
  const environment = await findClientEnvironment(db, request);
  if (!environment) {
    throw new AppError("environment_not_found", "No environment matches the X-API-Key header or the Host.");
  }
  assertOriginAllowed(request, environment);
  return { environment, session: await findActiveSession(db, environment, request) };
}

function wrap<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, C extends Caller>(
  operation: Operation<P, Q, B, R, AuthLevel>,
  resolveCaller: (request: Request, requestId: string) => Promise<C>,
  handler: Handler<C & HandlerInput<Infer<P>, Infer<Q>, Infer<B>>, R>,
): RouteHandler {
  // `retried`: a read whose database connection dropped runs once more (lib/http/database-faults.ts).
  const answer = async (request: Request, context: RouteContext, requestId: string, retried: boolean): Promise<Response> => {
    const responseHeaders = new Headers({ "x-request-id": requestId });
    let response: Response;
    try {
      const caller = await resolveCaller(request, requestId);
      if (operation.auth === "publishableKey" || operation.auth === "session" || operation.auth === "sensitiveSession") {
        for (const [name, value] of Object.entries(corsHeaders(request, caller.environment ?? null))) responseHeaders.set(name, value);
      }
      const params = parse(operation.params, await context.params, "path");
      const query = parse(operation.query, Object.fromEntries(new URL(request.url).searchParams), "query");
      // Only an absent body means "no fields"; a JSON `null` is a wrong type like any other.
      const raw = operation.body ? await readJsonBody(request) : undefined;
      const body = operation.body ? parse(operation.body, raw === undefined ? {} : raw, "body") : undefined;
      const result = await handler({
        ...caller,
        params: params as Infer<P>,
        query: query as Infer<Q>,
        body: body as Infer<B>,
        request,
        requestId,
        responseHeaders,
      });
      response = jsonResponse(operation, result);
    } catch (caught) {
      if (!retried && mayRetryAfterFault(request.method, caught)) return retryAfterPause(() => answer(request, context, requestId, true));
      const error = serviceUnavailableFor(caught, requestId) ?? caught;
      if (!(error instanceof AppError)) logUnexpectedError(requestId, error);
      const appError =
        error instanceof AppError ? error : new AppError("internal_error", `Something went wrong; quote request id ${requestId}.`);
      response = problemResponse(appError, requestId);
    }
    responseHeaders.forEach((value, name) => {
      if (name === "set-cookie") return;
      response.headers.set(name, value);
    });
    for (const cookie of responseHeaders.getSetCookie()) response.headers.append("set-cookie", cookie);
    return response;
  };
  return (request, context) => answer(request, context, requestIdFor(request), false);
}

function parse(schema: z.ZodType | undefined, value: unknown, location: "body" | "query" | "path"): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw zodToAppError(result.error, location);
  return result.data;
}

function jsonResponse(operation: AnyOperation, result: unknown): Response {
  if (result instanceof SeeOther) return new Response(null, { status: 303, headers: { location: result.location, "cache-control": "no-store" } });
  const headers = { "cache-control": operation.cacheControl ?? "no-store" };
  if (operation.response.status === 204) return new Response(null, { status: 204, headers });
  // Outside production every response is checked against its documented schema,
  // so the OpenAPI document cannot drift from what the handlers send.
  if (!isProduction() && operation.response.schema) {
    const check = operation.response.schema.safeParse(result);
    if (!check.success) {
      throw new Error(`${operation.operationId} response breaks its schema: ${check.error.message}`);
    }
  }
  return new Response(JSON.stringify(result), {
    status: operation.response.status,
    headers: { ...headers, "content-type": "application/json" },
  });
}
