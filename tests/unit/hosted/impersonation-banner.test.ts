import { and, eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import AccountPage from "@/app/(hosted)/account/page";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { getDb } from "@/db/client";
import { events, sessions } from "@/db/schema";
import { changePasswordAction } from "@/lib/hosted/actions/password";
import { requestDataExportAction } from "@/lib/hosted/actions/data-export";
import { signOutAction } from "@/lib/hosted/actions/sign-out";
import { brandingOf } from "@/lib/hosted/branding";
import { IDLE_STATE, type FormState } from "@/lib/hosted/form-state";
import { messagesFor, type Locale } from "@/lib/hosted/i18n/messages";
import { findEnvironment } from "@/lib/environments/context";
import type { ActiveSession } from "@/lib/sessions/resolve-session";
import { getUserOrThrow } from "@/lib/users/get-user";
import { call } from "../../helpers/api";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../../helpers/fixtures";
import { orRedirect, signIn } from "../../helpers/hosted-page-browser";

/* The impersonation banner on the hosted pages, and the hosted forms refusing as the API does: next/headers is the one thing stood in for. */

vi.mock("next/headers", () => import("../../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

type Env = Awaited<ReturnType<typeof newEnvironment>>;

const ACTOR = "support-agent-7";

/** A user and an impersonation session of theirs, opened through the Server and Client APIs; its token goes in the cookie. */
async function impersonation() {
  const env = await newEnvironment();
  const user = await createUser(env.api, { email: uniqueEmail("viewed"), password: STRONG_PASSWORD, firstName: "Ada", lastName: "Lovelace" });
  const minted = await env.api.post("/impersonation-tokens", { userId: user.id, actorId: ACTOR });
  const opened = await call("POST", "/_svc/auth/session/impersonate?_is_native=true", { body: { token: minted.body.token }, headers: { "x-api-key": env.publishableKey } });
  if (opened.status !== 200) throw new Error(`impersonate: ${opened.text}`);
  return { env, userId: user.id, token: opened.body.sessionToken as string, sessionId: opened.body.session.id as string };
}

async function activeSession(env: Env, userId: string, token: string, sessionId: string): Promise<ActiveSession> {
  const [session] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
  if (!session) throw new Error("no session");
  return { session, token, presentedAs: "cookie", user: await getUserOrThrow(getDb(), env.environmentId, userId) };
}

async function shell(env: Env, session: ActiveSession | null, locale: Locale = "en") {
  const environment = await findEnvironment(getDb(), env.environmentId);
  if (!environment) throw new Error("no environment");
  const context = { branding: brandingOf(environment), locale, t: messagesFor(locale), session, links: { origin: "http://localhost:3000", publishableKey: env.publishableKey } };
  // HostedShell uses no hooks: called as the function it is, like the pages' own tests call pages.
  return renderToStaticMarkup(HostedShell({ context, children: createElement("p", null, "page content") }));
}

/** A hosted form's post, with the environment's pk as the page's hidden field carries it. */
function form(env: Env, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  data.set("pk", env.publishableKey);
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const submit = (action: (state: FormState, data: FormData) => Promise<FormState>, data: FormData) => orRedirect(() => action(IDLE_STATE, data));

describe("the impersonation banner", () => {
  it("tops the hosted shell during an impersonation: whose account, who acts, and End, a sign-out form naming the environment", async () => {
    const { env, userId, token, sessionId } = await impersonation();
    const html = await shell(env, await activeSession(env, userId, token, sessionId));
    // A complementary landmark named by its own first line.
    expect(html).toMatch(/<aside class="[^"]*banner[^"]*" aria-labelledby="impersonation-banner-title"/);
    expect(html).toContain('<p id="impersonation-banner-title"');
    expect(html).toContain("You are viewing as Ada Lovelace");
    expect(html).toContain(`Acting as ${ACTOR}.`);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>End impersonation<\/button>/);
    expect(html).toContain(`name="pk" value="${env.publishableKey}"`);
    // Before the header and the main landmark: the first thing read and seen.
    expect(html.indexOf("impersonation-banner")).toBeLessThan(html.indexOf("<header"));
  });

  it("speaks Danish on a Danish page", async () => {
    const { env, userId, token, sessionId } = await impersonation();
    const html = await shell(env, await activeSession(env, userId, token, sessionId), "da");
    expect(html).toContain("Du ser siden som Ada Lovelace");
    expect(html).toContain("Afslut overtagelsen");
  });

  it("is absent for the user's own session, signed out, and on pages without a session", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const own = await openSession(env.environmentId, user.id);
    expect(await shell(env, await activeSession(env, user.id, own.token, own.session.id))).not.toContain("impersonation-banner");
    expect(await shell(env, null)).not.toContain("impersonation-banner");
  });

  it("shows on the account page of the impersonated user", async () => {
    const { env, token } = await impersonation();
    signIn(token);
    const html = renderToStaticMarkup(await AccountPage({ searchParams: Promise.resolve({ pk: env.publishableKey }) }));
    expect(html).toContain("You are viewing as Ada Lovelace");
  });
});

describe("hosted forms during an impersonation", () => {
  it("refuse what the API refuses, with the same reason in the page's words", async () => {
    const { env, token } = await impersonation();
    signIn(token);
    const t = messagesFor("en");
    const changed = await submit(changePasswordAction, form(env, { currentPassword: STRONG_PASSWORD, newPassword: "another horse battery staple" }));
    expect(changed).toMatchObject({ status: "error", message: t.errors.impersonation_forbidden });
    const exported = await submit(requestDataExportAction, form(env));
    expect(exported).toMatchObject({ status: "error", message: t.errors.impersonation_forbidden });
  });

  it("End signs the impersonation out, back to sign-in, and records its end on behalf of the impersonator", async () => {
    const { env, userId, token, sessionId } = await impersonation();
    signIn(token);
    const ended = await submit(signOutAction, form(env));
    expect(ended).toEqual({ redirect: expect.stringMatching(/^\/sign-in\?pk=/) });
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    expect(row?.status).toBe("revoked");
    const [event] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, env.environmentId), eq(events.type, "user.impersonation_ended")));
    expect(event).toMatchObject({ actorType: "user", actorId: userId, onBehalfOfType: "secret_key", onBehalfOfId: ACTOR, data: { sessionId, actorId: ACTOR, reason: "sign_out" } });
  });
});
