import type { z } from "zod";
import { getDb } from "@/db/client";
import { isProduction } from "../config/runtime";
import { resolveSecretKey } from "../environments/api-keys";
import { findClientEnvironment } from "../environments/resolve-client-environment";
import { AppError } from "../errors";
import { findActiveSession } from "../sessions/resolve-session";
import { assertOriginAllowed, corsHeaders, preflightHeaders } from "./cors";
import { mayRetryAfterFault, retryAfterPause, serviceUnavailableFor } from "./database-faults";
import { isFormPost, readFormBody, readJsonBody } from "./json-body";
import { logUnexpectedError } from "../log";
import type { AuthLevel, Operation } from "../operation/operation";
import type { Endpoint } from "../operation/endpoint";
import { executeOperation } from "./pipeline";
import type { PresentedCredentials } from "../operation/caller";
import { problemResponse } from "./problem";
import { requestContextOf } from "./request-context";
import { requestIdFor } from "./request-id";
import { flowSetCookies, sessionSetCookies } from "./effect-cookies";
import { ResponseEffects } from "../operation/response-effects";
import { SeeOther } from "../operation/see-other";
import { StreamedBody } from "../operation/streamed-body";

/** What Next.js passes as the second argument of a route handler. */
export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

type ZodOrNone = z.ZodType | undefined;

const CLIENT_LEVELS: ReadonlySet<AuthLevel> = new Set<AuthLevel>([
  "publishableKey",
  "anyClient",
  "optionalSession",
  "pendingSession",
  "session",
  "sensitiveSession",
]);

/**
 * What the caller presented, from the Request (CONTRACT §2): a secret key for the
 * Server API; for the Client API the environment from `X-API-Key` or the Host, a
 * browser Origin the environment allows, and the live session if one is presented.
 * Operators never reach the Server API over HTTP: the dashboard runs its operations
 * (lib/dashboard/run-operator-action.ts).
 */
async function presentedBy(level: AuthLevel, request: Request, requestId: string): Promise<PresentedCredentials> {
  const context = requestContextOf(request, requestId);
  if (level === "server") {
    const { environment, keyId } = await resolveSecretKey(getDb(), request.headers.get("authorization"));
    return { environment, session: null, secretKeyId: keyId, context };
  }
  if (!CLIENT_LEVELS.has(level)) return { environment: null, session: null, context };
  const db = getDb();
  const environment = await findClientEnvironment(db, request);
  if (!environment) return { environment: null, session: null, context };
  assertOriginAllowed(request, environment);
  return { environment, session: await findActiveSession(db, environment, request), context };
}

/**
 * Serves an endpoint over HTTP: resolve the caller, run the operation through the
 * shared pipeline, and turn its result, its effects (session cookie) or its error
 * into the Response. Unknown errors become a 500 with a request id; the cause is
 * logged, never sent.
 */
export function route<P extends ZodOrNone, Q extends ZodOrNone, B extends ZodOrNone, R extends ZodOrNone, A extends AuthLevel>(
  target: Endpoint<P, Q, B, R, A>,
): RouteHandler {
  const { operation } = target;
  // Dashboard-only operations (auth "operator", lib/operation/operation.ts) have no HTTP credential.
  if (operation.auth === "operator") throw new Error(`${operation.operationId} is dashboard-only; it cannot be served over HTTP`);
  // `retried`: a read whose database connection dropped runs once more (lib/http/database-faults.ts).
  const answer = async (request: Request, routeContext: RouteContext, requestId: string, retried: boolean): Promise<Response> => {
    const effects = new ResponseEffects();
    const headers = new Headers({ "x-request-id": requestId });
    let response: Response;
    try {
      const presented = await presentedBy(operation.auth, request, requestId);
      if (CLIENT_LEVELS.has(operation.auth)) {
        for (const [name, value] of Object.entries(corsHeaders(request, presented.environment))) headers.set(name, value);
      }
      const body = !operation.body ? undefined : operation.formBody && isFormPost(request) ? await readFormBody(request) : await readJsonBody(request);
      const stream = operation.streamBody ? streamedBody(request, operation.streamBody.contentType) : undefined;
      const raw = { params: await routeContext.params, query: Object.fromEntries(new URL(request.url).searchParams), body, stream };
      const result = await executeOperation(target, presented, raw, effects);
      response = result instanceof StreamedBody ? streamedResponse(operation, result, requestId) : jsonResponse(operation, result);
      effects.headers.forEach((value, name) => headers.set(name, value));
      for (const cookie of [...sessionSetCookies(effects, request), ...flowSetCookies(effects, request)]) headers.append("set-cookie", cookie);
    } catch (caught) {
      if (!retried && mayRetryAfterFault(request.method, caught)) return retryAfterPause(() => answer(request, routeContext, requestId, true));
      const error = serviceUnavailableFor(caught, requestId) ?? caught;
      if (!(error instanceof AppError)) logUnexpectedError(requestId, error);
      const appError =
        error instanceof AppError ? error : new AppError("internal_error", `Something went wrong; quote request id ${requestId}.`);
      response = problemResponse(appError, requestId);
    }
    headers.forEach((value, name) => {
      if (name !== "set-cookie") response.headers.set(name, value);
    });
    for (const cookie of headers.getSetCookie()) response.headers.append("set-cookie", cookie);
    return response;
  };
  return (request, routeContext) => answer(request, routeContext, requestIdFor(request), false);
}

/** The unread body of a `streamBody` operation, once its media type is the declared one (else 415). */
function streamedBody(request: Request, contentType: string): ReadableStream<Uint8Array> {
  const sent = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (sent !== contentType) throw new AppError("unsupported_media_type", `Send the body as ${contentType}, one JSON object a line.`);
  return request.body ?? new ReadableStream({ start: (controller) => controller.close() });
}

/** CORS preflight for Client API routes: answers only Origins the environment allows. */
export async function clientPreflight(request: Request): Promise<Response> {
  const environment = await findClientEnvironment(getDb(), request).catch(() => null);
  return new Response(null, { status: 204, headers: preflightHeaders(request, environment) });
}

/**
 * A streamed answer (an export): its first chunk was read before the handler
 * returned, the rest is pulled as the client reads. A failure mid-stream can no
 * longer become a problem+json answer (the status is sent): it is logged with the
 * request id and the stream is aborted, so the client sees a broken transfer rather
 * than a short export that looks complete.
 */
function streamedResponse(operation: Operation<ZodOrNone, ZodOrNone, ZodOrNone, ZodOrNone, AuthLevel>, result: StreamedBody, requestId: string): Response {
  const encoder = new TextEncoder();
  let first: string | null = result.first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = first;
        first = null;
        if (chunk) return controller.enqueue(encoder.encode(chunk));
        const next = await result.rest.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        logUnexpectedError(requestId, error);
        controller.error(error);
      }
    },
    async cancel() {
      await result.rest.return?.();
    },
  });
  return new Response(body, {
    status: operation.response.status,
    headers: { "cache-control": operation.cacheControl ?? "no-store", "content-type": operation.response.contentType ?? "application/octet-stream" },
  });
}

function jsonResponse(operation: Operation<ZodOrNone, ZodOrNone, ZodOrNone, ZodOrNone, AuthLevel>, result: unknown): Response {
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

