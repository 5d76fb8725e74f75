import { eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { getDb } from "@/db/client";
import { totpFactors } from "@/db/schema";
import { clientApi, type ClientApi } from "./client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "./fixtures";

const STEP_MS = 30_000;

/**
 * The code an authenticator app shows for `secret`, `stepOffset` steps from now,
 * from the independent `otpauth` implementation (not the otplib the server uses).
 */
export function totpCode(secret: string, stepOffset = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepOffset * STEP_MS });
}

/** A 6-digit code that is none of the codes the server would accept for `secret` right now. */
export function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((offset) => totpCode(secret, offset)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

/**
 * Waits out the last 3 seconds of a 30 s step, so a code made for an offset from
 * now is still that offset from the server's step when the request arrives.
 */
export async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % STEP_MS;
  if (intoStep > STEP_MS - 3_000) await new Promise((resolve) => setTimeout(resolve, STEP_MS - intoStep + 200));
}

/** Forgets which time steps the user spent, as if they had passed: a test cannot wait 30 s for its next code. */
export async function forgetUsedSteps(userId: string): Promise<void> {
  await getDb().update(totpFactors).set({ lastUsedStep: null }).where(eq(totpFactors.userId, userId));
}

/** An environment whose per-IP limits leave room for a test's many sign-ins from one address. */
export async function mfaEnvironment() {
  const created = await newEnvironment();
  const limit = { limit: 10_000, windowSeconds: 10 };
  const res = await created.api.patch("/environment", { rateLimits: { signIn: limit, codeAttempts: limit, emailSends: limit } });
  if (res.status !== 200) throw new Error(`settings: ${res.text}`);
  return created;
}

/** Signs in with the password; fails the test unless the answer is a session. */
export async function signedInClient(publishableKey: string, email: string, password = STRONG_PASSWORD) {
  const client = clientApi(publishableKey);
  const res = await client.post("/auth/login", { email, password });
  if (res.status !== 200 || !res.body.session) throw new Error(`login: ${res.status} ${res.text}`);
  return { client, session: res.body };
}

/** Turns on an authenticator app for a signed-in client; the confirmation's step is forgotten again. */
export async function enrollTotp(client: ClientApi, userId: string) {
  await awayFromStepEdge();
  const started = await client.post("/users/me/mfa/totp");
  if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`);
  const confirmed = await client.post("/users/me/mfa/totp/confirm", { code: totpCode(started.body.secret) });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  await forgetUsedSteps(userId);
  return { secret: started.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[], provisioning: started.body };
}

/** A user (made through the Server API) with an authenticator app on, and the client that enrolled it. */
export async function mfaUser(publishableKey: string, api: Parameters<typeof createUser>[0]) {
  const email = uniqueEmail("mfa");
  const user = await createUser(api, { email, password: STRONG_PASSWORD });
  const { client, session } = await signedInClient(publishableKey, email);
  const enrolled = await enrollTotp(client, user.id);
  return { email, userId: user.id, client, session, ...enrolled };
}

/** A password sign-in of an MFA user: the mfaToken of its `needs_second_factor` answer. */
export async function mfaToken(publishableKey: string, email: string): Promise<string> {
  const res = await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD });
  if (res.status !== 200 || res.body.status !== "needs_second_factor") throw new Error(`login: ${res.status} ${res.text}`);
  return res.body.mfaToken as string;
}
