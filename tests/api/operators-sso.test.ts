import { and, eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import DashboardSignInPage from "@/app/(dashboard)/dashboard/sign-in/page";
import { getDb } from "@/db/client";
import { events, userIdentities } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { operatorTwoStepAction } from "@/lib/dashboard/actions/account";
import { operatorSecondFactorAction } from "@/lib/dashboard/actions/second-factor";
import { operatorSignOutAction } from "@/lib/dashboard/actions/sign-out";
import { staffSsoSignInAction } from "@/lib/dashboard/actions/staff-sso";
import { DASHBOARD_COOKIE } from "@/lib/dashboard/auth";
import { currentOperator } from "@/lib/dashboard/operator-session";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { staffSsoSettings } from "@/lib/dashboard/staff-sso";
import { productionStartProblem } from "@/lib/config/production-checks";
import { findEnvironment } from "@/lib/environments/context";
import { IDLE_STATE } from "@/lib/hosted/form-state";
import { createOperator } from "@/lib/operators/create-operator";
import { internalEnvironment } from "@/lib/operators/internal-environment";
import { staffSsoProviderId } from "@/lib/operators/staff-sso-sign-in";
import { createUserEndpoint } from "@/lib/users/server-endpoints";
import { call, refusalOf } from "../helpers/api";
import { newEnvironment, uniqueEmail } from "../helpers/fixtures";
import { orRedirect, pageBrowser, signIn } from "../helpers/hosted-page-browser";
import { awayFromStepEdge, forgetUsedSteps, totpCode } from "../helpers/mfa";
import { withMode } from "../helpers/mode";
import { startOidcProvider, type LoopbackOidcProvider, type TestAccount } from "../helpers/oidc-provider";

/* Staff single sign-on: one OpenID provider (a real one, on loopback) lets in the operators an owner created, by verified address. */

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

const ORIGIN = "http://localhost:3000";
let idp: LoopbackOidcProvider;

function cookieHeader(): string {
  return [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The browser's next request to the dashboard, as Next.js hands it to a page or action (it sets x-forwarded-proto); `claimed` overrides its Host headers. */
function browse(claimed: Record<string, string> = {}) {
  const cookie = cookieHeader();
  pageBrowser.headers = new Headers({
    host: "localhost:3000",
    "x-forwarded-proto": "http",
    "accept-language": "en",
    "x-forwarded-for": "127.0.0.1",
    ...claimed,
    ...(cookie ? { cookie } : {}),
  });
}

/**
 * "Sign in with staff SSO", the provider's pages as `account`, then the callback: where
 * the callback sends the browser. `claimed` is what the browser's requests say their
 * Host is (a spoofed one must change nothing).
 */
async function ssoSignIn(account: TestAccount, claimed: Record<string, string> = {}): Promise<string> {
  browse(claimed);
  const started = (await orRedirect(() => staffSsoSignInAction())) as { redirect?: string } | undefined;
  if (!started?.redirect) throw new Error("the action did not redirect to the provider");
  expect(started.redirect.startsWith(`${idp.issuer}/`)).toBe(true);
  // The callback the provider is told to come back to is PUBLIC_URL's, whatever the request's Host said.
  expect(new URL(started.redirect).searchParams.get("redirect_uri")).toBe(`${ORIGIN}/dashboard/api/auth/callback/staff-sso`);
  const back = await idp.signIn(started.redirect, account.sub);
  expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/dashboard/api/auth/callback/staff-sso`);
  const res = await call("GET", `${back.pathname}${back.search}`, { headers: { host: "localhost:3000", "x-forwarded-proto": "http", ...claimed, cookie: cookieHeader() } });
  expect(res.status).toBe(302);
  for (const line of res.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const index = pair.indexOf("=");
    nextHeadersSet(pair.slice(0, index).trim(), pair.slice(index + 1).trim(), /max-age=0|expires=thu, 01 jan 1970/i.test(line));
  }
  return res.headers.get("location") ?? "";
}

function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

function nextHeadersSet(name: string, value: string, expired: boolean) {
  if (expired || value === "") pageBrowser.jar.delete(name);
  else pageBrowser.jar.set(name, value);
}

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/dashboard/api/auth/callback/staff-sso`] });
  process.env.DASHBOARD_OIDC_ISSUER = idp.issuer;
  process.env.DASHBOARD_OIDC_CLIENT_ID = idp.client.clientId;
  process.env.DASHBOARD_OIDC_CLIENT_SECRET = idp.client.clientSecret;
});

afterAll(async () => {
  delete process.env.DASHBOARD_OIDC_ISSUER;
  delete process.env.DASHBOARD_OIDC_CLIENT_ID;
  delete process.env.DASHBOARD_OIDC_CLIENT_SECRET;
  await idp.close();
});

beforeEach(() => signIn(null));

describe("staff single sign-on (DASHBOARD_OIDC_*)", () => {
  it("signs in the operator whose address the provider verified, with their role, through next-auth's OIDC flow", async () => {
    const account = idp.addAccount({ email: `staff-${Date.now()}@idp.example`, emailVerified: true, name: "Sam Staff" });
    const { operator } = await createOperator(getDb(), { email: account.email ?? "", role: "admin" }, SYSTEM_ACTOR);
    const location = await ssoSignIn(account);
    expect(location).toBe(`${ORIGIN}/dashboard`);
    expect(pageBrowser.jar.get(DASHBOARD_COOKIE)).toBeTruthy();
    browse();
    expect(await currentOperator()).toEqual({ id: operator.id, email: account.email, role: "admin", hasSecondFactor: false, sessionProvedSecondFactor: false });
  });

  it("refuses an address that is no operator's, and one the provider did not verify: no cookie, the sign-in page says so", async () => {
    const stranger = idp.addAccount({ email: `stranger-${Date.now()}@idp.example`, emailVerified: true });
    expect(await ssoSignIn(stranger)).toBe(`${ORIGIN}/dashboard/sign-in?error=AccessDenied`);
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);

    signIn(null);
    const unverified = idp.addAccount({ email: `unverified-staff-${Date.now()}@idp.example`, emailVerified: false });
    await createOperator(getDb(), { email: unverified.email ?? "", role: "owner" }, SYSTEM_ACTOR);
    expect(await ssoSignIn(unverified)).toBe(`${ORIGIN}/dashboard/sign-in?error=AccessDenied`);
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
  });

  it("the sign-in page offers it above the password form, and says why when the provider's sign-in was refused", async () => {
    browse();
    const page = async (search: Record<string, string>) => renderToStaticMarkup(await DashboardSignInPage({ searchParams: Promise.resolve(search) }));
    expect(await page({})).toContain("Sign in with staff SSO");
    expect(await page({ error: "AccessDenied" })).toContain("your address is not an operator&#x27;s here");
    expect(await page({ error: "OAuthCallbackError" })).toContain("Single sign-on did not work.");
  });

  it("is on only with all three settings, and production refuses a partial or http setting at start", () => {
    expect(staffSsoSettings()).toMatchObject({ issuer: idp.issuer, clientId: idp.client.clientId });
    expect(staffSsoSettings({ DASHBOARD_OIDC_ISSUER: "https://sso.example.com" })).toBeNull();
    const production = { GATEHOUSE_SECRET: "x".repeat(40), PUBLIC_URL: "https://auth.example.com", EMAIL_TRANSPORT: "smtp" };
    const saved = process.env.GATEHOUSE_MODE;
    process.env.GATEHOUSE_MODE = "production";
    try {
      expect(productionStartProblem(production)).toBeNull();
      expect(productionStartProblem({ ...production, DASHBOARD_OIDC_ISSUER: "https://sso.example.com" })).toMatch(/set all three, or none/);
      const http = { ...production, DASHBOARD_OIDC_ISSUER: "http://sso.example.com", DASHBOARD_OIDC_CLIENT_ID: "id", DASHBOARD_OIDC_CLIENT_SECRET: "secret" };
      expect(productionStartProblem(http)).toMatch(/must be an https:\/\/ URL/);
    } finally {
      if (saved === undefined) delete process.env.GATEHOUSE_MODE;
      else process.env.GATEHOUSE_MODE = saved;
    }
  });

  it("answers 404 for every other next-auth URL: sign-in, sign-out and the session go through the dashboard's own pages", async () => {
    for (const path of ["/dashboard/api/auth/session", "/dashboard/api/auth/signin", "/dashboard/api/auth/providers", "/dashboard/api/auth/csrf"]) {
      expect((await call("GET", path)).status).toBe(404);
    }
    expect((await call("POST", "/dashboard/api/auth/callback/credentials", { body: {} })).status).toBe(405);
  });
  it("matches an operator by the provider account: the first sign-in links it by verified address, later ones by subject alone; another account with the address is refused", async () => {
    const email = uniqueEmail("linked-staff");
    const account = idp.addAccount({ email, emailVerified: true, name: "Lin Linked" });
    const { operator } = await createOperator(getDb(), { email, role: "admin" }, SYSTEM_ACTOR);
    expect(await ssoSignIn(account)).toBe(`${ORIGIN}/dashboard`);
    const internal = await internalEnvironment(getDb());
    const identities = await getDb().select().from(userIdentities).where(eq(userIdentities.userId, operator.userId));
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ environmentId: internal.id, providerId: staffSsoProviderId(idp.issuer), subject: account.sub, email });
    const linked = await getDb().select().from(events).where(and(eq(events.subjectId, operator.userId), eq(events.type, "identity.linked")));
    expect(linked).toHaveLength(1);

    // The address changes at the provider (even to one no operator has, or unverified): the subject still signs in.
    signIn(null);
    account.email = uniqueEmail("renamed-at-idp");
    account.emailVerified = false;
    expect(await ssoSignIn(account)).toBe(`${ORIGIN}/dashboard`);
    browse();
    expect(await currentOperator()).toMatchObject({ id: operator.id });

    // Another account of the provider that has (or claims) the operator's address is not the linked one: refused.
    signIn(null);
    const impostor = idp.addAccount({ email, emailVerified: true });
    expect(await ssoSignIn(impostor)).toBe(`${ORIGIN}/dashboard/sign-in?error=AccessDenied`);
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
    expect(await getDb().select().from(userIdentities).where(eq(userIdentities.userId, operator.userId))).toHaveLength(1);
  });

  it("an operator with a second factor owes it after staff SSO too: the callback leads to the second step, and no session exists before the code", async () => {
    const email = uniqueEmail("sso-factor");
    const account = idp.addAccount({ email, emailVerified: true });
    const { operator } = await createOperator(getDb(), { email, role: "owner" }, SYSTEM_ACTOR);
    expect(await ssoSignIn(account)).toBe(`${ORIGIN}/dashboard`);
    browse();
    const started = await operatorTwoStepAction(IDLE_STATE, formOf({ intent: "start" }));
    const secret = started.totpEnrollment?.secret ?? "";
    await awayFromStepEdge();
    const confirmed = await operatorTwoStepAction(started, formOf({ intent: "confirm", code: totpCode(secret), ...started.totpEnrollment }));
    expect(confirmed.recoveryCodes).toHaveLength(10);
    await forgetUsedSteps(operator.userId);
    browse();
    await orRedirect(() => operatorSignOutAction());

    expect(await ssoSignIn(account)).toBe(`${ORIGIN}/dashboard/sign-in/verify`);
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
    browse();
    expect(await currentOperator()).toBeNull();
    expect(await orRedirect(() => operatorSecondFactorAction(IDLE_STATE, formOf({ code: totpCode(secret) })))).toEqual({ redirect: "/dashboard" });
    browse();
    expect(await currentOperator()).toEqual({ id: operator.id, email, role: "owner", hasSecondFactor: true, sessionProvedSecondFactor: true });
  });

  it("staff SSO is no second factor: in production a factorless admin signed in by it may only read", async () => {
    const email = uniqueEmail("sso-no-factor");
    const account = idp.addAccount({ email, emailVerified: true });
    await createOperator(getDb(), { email, role: "admin" }, SYSTEM_ACTOR);
    expect(await ssoSignIn(account)).toBe(`${ORIGIN}/dashboard`);
    browse();
    const identity = await currentOperator();
    expect(identity).toMatchObject({ role: "admin", hasSecondFactor: false });
    const env = await newEnvironment();
    const environment = await findEnvironment(getDb(), env.environmentId);
    if (!identity || !environment) throw new Error("no operator or environment");
    const context = { requestId: "req_sso_rule", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
    await withMode("production", async () => {
      const refused = await refusalOf(runOperatorOperation(createUserEndpoint, identity, environment, { body: { email: uniqueEmail() } }, context));
      expect(refused.code).toBe("operator_second_factor_required");
    });
  });

  it("regression: next-auth trusted the Host header; a request naming another host gets PUBLIC_URL's callback and redirects, never its own", async () => {
    const email = uniqueEmail("spoofed-host");
    const account = idp.addAccount({ email, emailVerified: true });
    const { operator } = await createOperator(getDb(), { email, role: "viewer" }, SYSTEM_ACTOR);
    const spoofed = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const location = await ssoSignIn(account, spoofed);
    expect(location).toBe(`${ORIGIN}/dashboard`);
    browse(spoofed);
    expect(await currentOperator()).toMatchObject({ id: operator.id });
    // A refused sign-in's error page is PUBLIC_URL's too.
    signIn(null);
    const stranger = idp.addAccount({ email: uniqueEmail("stranger"), emailVerified: true });
    expect(await ssoSignIn(stranger, spoofed)).toBe(`${ORIGIN}/dashboard/sign-in?error=AccessDenied`);
  });
});
