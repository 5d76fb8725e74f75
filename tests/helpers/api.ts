import { expect } from "vitest";
import { AppError } from "@/lib/errors";
import { resolveRoute } from "./route-table";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as-is, for malformed or oversized bodies. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Sends one HTTP-shaped request through the route handler that serves `path`. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const url = new URL(path, "http://localhost:3000");
  const headers = new Headers(options.headers);
  // What the server records for a test run on this machine: the socket address as the
  // right-most X-Forwarded-For entry (lib/server/socket-address.ts). A test that sends
  // its own X-Forwarded-For gives the whole chain as the handler would see it.
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", "127.0.0.1");
  let body: BodyInit | undefined;
  if (options.rawBody !== undefined) body = options.rawBody as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const route = await resolveRoute(method, url.pathname);
  if (!route) throw new Error(`no route handler for ${method} ${url.pathname}`);
  const request = new Request(url, { method, headers, body });
  const response = await route.handler(request, { params: Promise.resolve(route.params) });
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    body: (contentType.includes("json") && !contentType.includes("ndjson") && text ? JSON.parse(text) : text) as T,
    text,
  };
}

/** The AppError a lib call (or an operator's run of an operation) is refused with; fails the test on success or any other error. */
export async function refusalOf(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

/** A Server API client bound to one secret key. */
export function serverApi(secretKey: string) {
  const auth = { authorization: `Bearer ${secretKey}` };
  const send = <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call<T>(method, `/api/server/v1${path}`, { body, headers: { ...auth, ...headers } });
  return {
    get: <T = any>(path: string) => send<T>("GET", path),
    post: <T = any>(path: string, body?: unknown) => send<T>("POST", path, body),
    patch: <T = any>(path: string, body?: unknown) => send<T>("PATCH", path, body),
    put: <T = any>(path: string, body?: unknown) => send<T>("PUT", path, body),
    delete: <T = any>(path: string) => send<T>("DELETE", path),
    raw: (method: string, path: string, options: CallOptions = {}) =>
      call(method, `/api/server/v1${path}`, { ...options, headers: { ...auth, ...options.headers } }),
  };
}

export type ServerApi = ReturnType<typeof serverApi>;

/**
 * Asserts a CONTRACT §4 error: the status, problem+json, the machine code in both
 * places, and a detail a person can read.
 */
export function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect(res.status, `${res.status} ${res.text}`).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.body.properties?.code).toBe(code);
  expect(res.body.type).toBe(`https://gatehouse.dev/errors/${code}`);
  expect(typeof res.body.title).toBe("string");
  expect(typeof res.body.detail).toBe("string");
  expect(res.body.detail.length).toBeGreaterThan(0);
}

/** The field names listed in a problem's `properties.errors`. */
export function problemFields(res: ApiResponse): string[] {
  return ((res.body.properties?.errors ?? []) as { field: string }[]).map((error) => error.field);
}

export interface OperationCase {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (ids: { userId: string; sessionId: string }) => string;
  body?: unknown;
}

/** Every Server API operation on one user (or one of its sessions): each must refuse foreign, unknown and malformed ids. */
export const USER_OPERATIONS: OperationCase[] = [
  { name: "get user", method: "GET", path: ({ userId }) => `/users/${userId}` },
  { name: "update user", method: "PATCH", path: ({ userId }) => `/users/${userId}`, body: { firstName: "Mallory" } },
  { name: "delete user", method: "DELETE", path: ({ userId }) => `/users/${userId}` },
  { name: "update metadata", method: "PATCH", path: ({ userId }) => `/users/${userId}/metadata`, body: { publicMetadata: { owned: true } } },
  { name: "ban user", method: "POST", path: ({ userId }) => `/users/${userId}/ban` },
  { name: "unban user", method: "POST", path: ({ userId }) => `/users/${userId}/unban` },
  { name: "list sessions", method: "GET", path: ({ userId }) => `/users/${userId}/sessions` },
  { name: "revoke all sessions", method: "DELETE", path: ({ userId }) => `/users/${userId}/sessions` },
  { name: "revoke one session", method: "DELETE", path: ({ userId, sessionId }) => `/users/${userId}/sessions/${sessionId}` },
  { name: "reset second factors", method: "DELETE", path: ({ userId }) => `/users/${userId}/mfa` },
  // Any UUID stands for the identity: the user is checked first.
  { name: "disconnect an identity", method: "DELETE", path: ({ userId, sessionId }) => `/users/${userId}/identities/${sessionId}` },
];

/** Every Server API operation, for the checks that do not depend on a user. */
export const ALL_SERVER_OPERATIONS: OperationCase[] = [
  { name: "create user", method: "POST", path: () => "/users", body: {} },
  { name: "search users", method: "POST", path: () => "/users/search", body: {} },
  { name: "count users", method: "GET", path: () => "/users/count" },
  ...USER_OPERATIONS,
  { name: "get allowed origins", method: "GET", path: () => "/allowed-origins" },
  { name: "replace allowed origins", method: "PUT", path: () => "/allowed-origins", body: { origins: [] } },
  { name: "get environment settings", method: "GET", path: () => "/environment" },
  { name: "update environment settings", method: "PATCH", path: () => "/environment", body: {} },
  { name: "list organizations", method: "GET", path: () => "/organizations" },
  { name: "create organization", method: "POST", path: () => "/organizations", body: { name: "Acme" } },
  { name: "get organization", method: "GET", path: ({ userId }) => `/organizations/${userId}` },
  { name: "update organization", method: "PATCH", path: ({ userId }) => `/organizations/${userId}`, body: { name: "Acme" } },
  { name: "delete organization", method: "DELETE", path: ({ userId }) => `/organizations/${userId}` },
  { name: "list organization members", method: "GET", path: ({ userId }) => `/organizations/${userId}/members` },
  { name: "add organization member", method: "POST", path: ({ userId }) => `/organizations/${userId}/members`, body: { userId: "00000000-0000-4000-8000-000000000000", role: "member" } },
  { name: "change organization member role", method: "PATCH", path: ({ userId }) => `/organizations/${userId}/members/${userId}`, body: { role: "admin" } },
  { name: "remove organization member", method: "DELETE", path: ({ userId }) => `/organizations/${userId}/members/${userId}` },
  { name: "list organization invitations", method: "GET", path: ({ userId }) => `/organizations/${userId}/invitations` },
  { name: "invite to organization", method: "POST", path: ({ userId }) => `/organizations/${userId}/invitations`, body: { email: "a@example.com", role: "member" } },
  { name: "resend organization invitation", method: "POST", path: ({ userId }) => `/organizations/${userId}/invitations/${userId}/resend` },
  { name: "revoke organization invitation", method: "DELETE", path: ({ userId }) => `/organizations/${userId}/invitations/${userId}` },
  { name: "get organization roles", method: "GET", path: () => "/roles" },
  { name: "replace organization roles", method: "PUT", path: () => "/roles", body: { items: [] } },
  { name: "list secret keys", method: "GET", path: () => "/api-keys" },
  { name: "create secret key", method: "POST", path: () => "/api-keys", body: {} },
  { name: "revoke secret key", method: "DELETE", path: ({ userId }) => `/api-keys/${userId}` },
  { name: "list signing keys", method: "GET", path: () => "/signing-keys" },
  { name: "get frontend hosts", method: "GET", path: () => "/frontend-hosts" },
  { name: "list audit events", method: "GET", path: () => "/audit-events" },
  { name: "get activity summary", method: "GET", path: () => "/activity-summary" },
];
