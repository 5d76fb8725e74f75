import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { call, type ApiResponse } from "./api";

/**
 * A browser-like Client API caller for one environment: sends X-API-Key, keeps the
 * cookies the server sets and sends them back, like a real cookie jar.
 */
export function clientApi(publishableKey: string, defaults: { headers?: Record<string, string> } = {}) {
  const jar = new Map<string, string>();
  const send = async <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await call<T>(method, `/_svc${path}`, {
      body,
      headers: { "x-api-key": publishableKey, ...(cookie ? { cookie } : {}), ...defaults.headers, ...headers },
    });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = setCookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim())) || value === "";
      if (expired) jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
  return {
    jar,
    get: <T = any>(path: string, headers?: Record<string, string>) => send<T>("GET", path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => send<T>("POST", path, body, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => send<T>("PATCH", path, body, headers),
    delete: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => send<T>("DELETE", path, body, headers),
  };
}

export type ClientApi = ReturnType<typeof clientApi>;

export interface MailboxMessage {
  subject: string;
  text: string;
  html: string;
  template: string;
  locale: string;
}

/** The newest email to an address (of one template, when given), read from the outbox through the dev mailbox route. */
export async function latestEmail(to: string, template?: string): Promise<MailboxMessage> {
  const response = await call<{ items?: MailboxMessage[] }>("GET", `/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
  const message = (response.body.items ?? []).find((item) => !template || item.template === template);
  if (!message) throw new Error(`no ${template ?? ""} email to ${to}`);
  return message;
}

/** How many emails went to an address (of one template, when given). */
export async function emailCount(to: string, template?: string): Promise<number> {
  const response = await call<{ items: MailboxMessage[] }>("GET", `/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
  return response.body.items.filter((item) => !template || item.template === template).length;
}

/** The 6-digit code standing alone in an email's text part. */
export function codeIn(text: string): string {
  const code = /(?:^|\s)(\d{6})(?:\s|$)/.exec(text)?.[1];
  if (!code) throw new Error(`no 6-digit code in: ${text}`);
  return code;
}

/**
 * Asks for a password-reset code and reads it from the outbox: forgot-password
 * answers first and sends after, so the new email is waited for.
 */
export async function emailedResetCode(publishableKey: string, email: string): Promise<string> {
  const before = await emailCount(email, "password_reset_code");
  const asked = await clientApi(publishableKey).post("/auth/forgot-password", { email });
  if (asked.status !== 200) throw new Error(`forgot-password answered ${asked.status}: ${asked.text}`);
  for (let attempt = 0; (await emailCount(email, "password_reset_code")) === before; attempt++) {
    if (attempt >= 100) throw new Error(`no new password_reset_code email to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return codeIn((await latestEmail(email, "password_reset_code")).text);
}

/** Signs up and verifies a new user through the Client API; returns the signed-in client. */
export async function signedUpClient(publishableKey: string, email: string, password: string) {
  const client = clientApi(publishableKey);
  const started = await client.post("/auth/signup", { email, password, name: "Test User" });
  if (started.status !== 200) throw new Error(`sign-up failed: ${started.text}`);
  const code = codeIn((await latestEmail(email)).text);
  const verified = await client.post("/auth/signup/verify", { token: started.body.token, code });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.text}`);
  return { client, session: verified.body };
}

/** Ages the session's last password proof, as if the user signed in an hour ago. */
export async function ageSignIn(sessionId: string): Promise<void> {
  await getDb().update(sessions).set({ lastVerifiedAt: new Date(Date.now() - 3600_000) }).where(eq(sessions.id, sessionId));
}
