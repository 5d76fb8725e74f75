import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { ERRORS, type ErrorCode } from "../errors";
import { refusedDuringImpersonation, type AuthLevel, type Operation } from "../operation/operation";
import { MAX_BODY_BYTES } from "../http/json-body";
import { ALL_OPERATIONS } from "./operations";

type AnyOperation = Operation<never, never, never, never, AuthLevel>;

const problemSchema = z
  .object({
    type: z.string().meta({ format: "uri" }),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
    requestId: z.string(),
    properties: z.object({
      code: z.string(),
      errors: z
        .array(
          z.object({
            field: z.string(),
            code: z.string(),
            message: z.string(),
            params: z.record(z.string(), z.union([z.string(), z.number()])).optional().meta({ description: "The facts behind the message, e.g. `{reason: \"too_short\", min: 8}`." }),
          }),
        )
        .optional(),
      currentGate: z.object({ key: z.string() }).nullable().optional().meta({ description: "With `session_pending`: the gate to clear first." }),
    }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details; `code` is repeated in `properties.code`." });

const SESSION_SECURITY: Record<string, string[]>[] = [
  { publishableKey: [], sessionCookie: [] },
  { frontendHost: [], sessionCookie: [] },
  { publishableKey: [], sessionToken: [] },
];

const SECURITY: Record<AuthLevel, Record<string, string[]>[]> = {
  server: [{ secretKey: [] }],
  publishableKey: [{ publishableKey: [] }, { frontendHost: [] }],
  anyClient: [{}, { publishableKey: [] }, { frontendHost: [] }],
  optionalSession: [{ publishableKey: [] }, { frontendHost: [] }, ...SESSION_SECURITY],
  pendingSession: SESSION_SECURITY,
  session: SESSION_SECURITY,
  sensitiveSession: SESSION_SECURITY,
  none: [],
  // Dashboard-only operations are never documented (skipped below); listed for the Record's completeness.
  operator: [],
};

/** Answers any operation may give, documented once here rather than on every operation. */
const COMMON_ERRORS: ErrorCode[] = ["rate_limited", "service_unavailable", "internal_error"];

/** Codes whose answers carry `Retry-After` (seconds). */
const RETRY_AFTER_CODES = new Set<ErrorCode>(["rate_limited", "service_unavailable"]);

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...codes, ...COMMON_ERRORS])) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((code) => `\`${code}\`: ${ERRORS[code].title}`).join("; "),
        ...(list.some((code) => RETRY_AFTER_CODES.has(code))
          ? { headers: z.object({ "Retry-After": z.string().meta({ description: "Seconds to wait before trying again.", example: "2" }) }) }
          : {}),
        content: { "application/problem+json": { schema: problemSchema } },
      },
    ]),
  );
}

function toOpenApi(operation: AnyOperation): ZodOpenApiOperationObject {
  const { response } = operation;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: operation.tags,
    security: SECURITY[operation.auth],
    ...(operation.organization?.permission ? { "x-organization-permission": operation.organization.permission } : {}),
    requestParams: {
      ...(operation.params ? { path: operation.params as z.ZodObject } : {}),
      ...(operation.query ? { query: operation.query as z.ZodObject } : {}),
    },
    ...(operation.body
      ? {
          requestBody: {
            required: false,
            description: `JSON, at most ${MAX_BODY_BYTES} bytes and 32 levels deep.`,
            content: { "application/json": { schema: operation.body as z.ZodType } },
          },
        }
      : {}),
    ...(operation.streamBody
      ? {
          requestBody: {
            required: true,
            description: operation.streamBody.description,
            content: {
              [operation.streamBody.contentType]: {
                schema: operation.streamBody.first ? z.union([operation.streamBody.first, operation.streamBody.line]) : operation.streamBody.line,
                example: operation.streamBody.example,
              },
            },
          },
        }
      : {}),
    responses: {
      [String(response.status)]: {
        description: response.description,
        ...(operation.cacheControl
          ? { headers: z.object({ "Cache-Control": z.string().meta({ description: "Caching policy.", example: operation.cacheControl }) }) }
          : {}),
        ...(response.status === 303 ? { headers: z.object({ Location: z.string().meta({ description: "Where the browser goes next." }) }) } : {}),
        ...(response.schema ? { content: { [response.contentType ?? "application/json"]: { schema: response.schema as z.ZodType } } } : {}),
      },
      // The pipeline refuses these to an impersonation session whatever the operation lists.
      ...errorResponses(refusedDuringImpersonation(operation) ? [...operation.errors, "impersonation_forbidden"] : operation.errors),
    },
  };
}

let cached: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes parse with. */
export function openApiDocument() {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of ALL_OPERATIONS) {
    if (operation.auth === "operator") continue;
    paths[operation.path] = { ...paths[operation.path], [operation.method]: toOpenApi(operation) };
  }
  cached = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Gatehouse API",
      version: "1.0.0",
      description: [
        "Self-hostable identity and session service.",
        "",
        "- **Server API** (`/api/server/v1`): back-end calls with `Authorization: Bearer sk_...`.",
        "- **Client API** (`/_svc`): browsers and SDKs, environment from `X-API-Key: pk_...` or the Host.",
        "",
        "Every error is `application/problem+json` with a machine `code`. Bodies are limited to 64 KiB.",
        "A method a path does not support answers `405 method_not_allowed` with an `Allow` header; OPTIONS answers 204 with `Allow` (or the CORS preflight).",
        "When the database connection drops (a restart, a failover), a read is retried once on a fresh connection;",
        "otherwise the answer is 503 `service_unavailable` with `Retry-After`. A write answered that way may or may not",
        "have taken effect, never half of it: read the resource before repeating a write that must not happen twice.",
        "Lists are keyset-paginated: pass `nextCursor` as `cursor` until `hasMore` is false.",
      ].join("\n"),
    },
    servers: [{ url: "/", description: "This server" }],
    components: {
      securitySchemes: {
        secretKey: { type: "http", scheme: "bearer", description: "Secret key `sk_test_...` / `sk_live_...`; shown once at creation." },
        publishableKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "Publishable key `pk_test_...` / `pk_live_...`." },
        frontendHost: { type: "apiKey", in: "header", name: "Host", description: "The environment's frontend host, when no X-API-Key is sent." },
        sessionCookie: { type: "apiKey", in: "cookie", name: "__gh_session", description: "Session cookie set by sign-in: HttpOnly, SameSite=Lax, Path=/, host-only (no Domain), Secure whenever PUBLIC_URL is https or the request was. When PUBLIC_URL is https it is set and cleared together with the HttpOnly companion `__Host-gh_session_bind` (a keyed hash of the token), and counts only beside it: of two `__gh_session` cookies, the one the companion names counts. Over plain http a request carrying two of them is treated as having no session." },
        sessionToken: { type: "http", scheme: "bearer", description: "Native apps: the `sessionToken` returned when `_is_native=true`." },
      },
    },
    paths,
  });
  return cached;
}
