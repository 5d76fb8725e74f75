import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { createSecretKey, revokeSecretKey } from "@/lib/environments/api-keys";
import { createEnvironment } from "@/lib/environments/create-environment";
import { findEnvironment } from "@/lib/environments/context";
import { establishSession } from "@/lib/sessions/establish-session";
import { getUserOrThrow } from "@/lib/users/get-user";
import type { ServerUser } from "@/lib/users/schemas";
import { serverApi, type ServerApi } from "./api";

let counter = 0;

/** A fresh application + environment with its keys and a Server API client. */
export async function newEnvironment(options: { kind?: "development" | "production" } = {}) {
  counter += 1;
  const created = await createEnvironment(getDb(), { name: `Test app ${counter}`, kind: options.kind });
  return { ...created, api: serverApi(created.secretKey) };
}

export function uniqueEmail(tag = "user"): string {
  counter += 1;
  return `${tag}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Opens a real session for a user through establishSession, as a password sign-in does. */
export async function openSession(environmentId: string, userId: string) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no such environment");
  const user = await getUserOrThrow(getDb(), environmentId, userId);
  const context = { requestId: "fixture", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
  const result = await establishSession(getDb(), environment, user, { methods: ["pwd"] }, context);
  if (result.kind !== "session" && result.kind !== "pending_gates") throw new Error(`no session: ${result.kind}`);
  return { session: result.grant.session, token: result.grant.token };
}

export const STRONG_PASSWORD = "correct horse battery staple";

/** Creates a user through the Server API and returns its server view; fails the test on anything but 201. */
export async function createUser(api: ServerApi, body: Record<string, unknown> = {}) {
  const res = await api.post("/users", body);
  if (res.status !== 201) throw new Error(`create user answered ${res.status}: ${res.text}`);
  return res.body as ServerUser;
}

/** A second secret key for the environment, then revoked: every request with it must get 401. */
export async function revokedSecretKey(environmentId: string, kind: "development" | "production" = "development") {
  const { id, secretKey } = await createSecretKey(getDb(), { id: environmentId, kind }, "revoked in a test");
  await revokeSecretKey(getDb(), id);
  return secretKey;
}

/** Moves a session's expiry into the past, as if its lifetime had run out. */
export async function expireSession(sessionId: string) {
  await getDb()
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.id, sessionId));
}

/** A syntactically valid UUID that names nothing. */
export function unknownId(): string {
  return randomUUID();
}
