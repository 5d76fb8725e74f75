import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import DashboardSignInPage from "@/app/(dashboard)/dashboard/sign-in/page";
import { getDb } from "@/db/client";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { staffSsoSignInAction } from "@/lib/dashboard/actions/staff-sso";
import { DASHBOARD_COOKIE } from "@/lib/dashboard/auth";
import { currentOperator } from "@/lib/dashboard/operator-session";
import { staffSsoSettings } from "@/lib/dashboard/staff-sso";
import { productionStartProblem } from "@/lib/config/production-checks";
import { createOperator } from "@/lib/operators/create-operator";
import { call } from "../helpers/api";
import { orRedirect, pageBrowser, signIn } from "../helpers/hosted-page-browser";
import { startOidcProvider, type LoopbackOidcProvider, type TestAccount } from "../helpers/oidc-provider";

/* Staff single sign-on: one OpenID provider (a real one, on loopback) lets in the operators an owner created, by verified address. */

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));

const ORIGIN = "http://localhost:3000";
let idp: LoopbackOidcProvider;

function cookieHeader(): string {
  return [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The browser's next request to the dashboard, as Next.js hands it to a page or action (it sets x-forwarded-proto). */
function browse() {
  const cookie = cookieHeader();
  pageBrowser.headers = new Headers({ host: "localhost:3000", "x-forwarded-proto": "http", "accept-language": "en", "x-forwarded-for": "127.0.0.1", ...(cookie ? { cookie } : {}) });
}

/** "Sign in with staff SSO", the provider's pages as `account`, then the callback: where the callback sends the browser. */
async function ssoSignIn(account: TestAccount): Promise<string> {
  browse();
  const started = (await orRedirect(() => staffSsoSignInAction())) as { redirect?: string } | undefined;
  if (!started?.redirect) throw new Error("the action did not redirect to the provider");
  expect(started.redirect.startsWith(`${idp.issuer}/`)).toBe(true);
  const back = await idp.signIn(started.redirect, account.sub);
  expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/dashboard/api/auth/callback/staff-sso`);
  const res = await call("GET", `${back.pathname}${back.search}`, { headers: { host: "localhost:3000", "x-forwarded-proto": "http", cookie: cookieHeader() } });
  expect(res.status).toBe(302);
  for (const line of res.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const index = pair.indexOf("=");
    nextHeadersSet(pair.slice(0, index).trim(), pair.slice(index + 1).trim(), /max-age=0|expires=thu, 01 jan 1970/i.test(line));
  }
  return res.headers.get("location") ?? "";
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
    expect(await currentOperator()).toEqual({ id: operator.id, email: account.email, role: "admin" });
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
});
