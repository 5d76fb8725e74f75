import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import AccountPage from "@/app/(hosted)/account/page";
import ConsentPage from "@/app/(hosted)/consent/page";
import MfaEnrollmentPage from "@/app/(hosted)/mfa-enrollment/page";
import NewOrganizationPage from "@/app/(hosted)/organizations/new/page";
import SignInPage from "@/app/(hosted)/sign-in/page";
import VerifyEmailPage from "@/app/(hosted)/verify-email/page";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { loadOperation } from "@/lib/hosted/load-operation";
import { updateMeEndpoint } from "@/lib/users/me-endpoints";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../../helpers/fixtures";
import { orRedirect, signIn } from "../../helpers/hosted-page-browser";

/* Hosted pages read through loadOperation: the pipeline's auth level decides, and a refused session goes where a form's would. */

vi.mock("next/headers", () => import("../../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

type Env = Awaited<ReturnType<typeof newEnvironment>>;
type Page = (props: { searchParams: Promise<Record<string, string>> }) => Promise<React.ReactElement>;

/** Renders a page; a redirect (Next's signal) answers its target instead of markup. */
function open(page: Page, env: Env, search: Record<string, string> = {}) {
  return orRedirect(async () => ({ html: renderToStaticMarkup(await page({ searchParams: Promise.resolve({ pk: env.publishableKey, ...search }) })) }));
}

async function person(env: Env) {
  const email = uniqueEmail();
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD, firstName: "Ada" });
  return { email, ...(await openSession(env.environmentId, user.id)) };
}

beforeEach(() => signIn(null));

describe("pages that need a session", () => {
  it("send a signed-out visitor to sign-in and back to the page; render for an ACTIVE session", async () => {
    const env = await newEnvironment();
    const pk = env.publishableKey;
    expect(await open(AccountPage, env)).toEqual({ redirect: `/sign-in?pk=${pk}&redirect_url=%2Faccount` });
    expect(await open(NewOrganizationPage, env)).toEqual({ redirect: `/sign-in?pk=${pk}&redirect_url=%2Forganizations%2Fnew` });
    // The gate pages keep the flow's own redirect_url: after sign-in the flow goes on to the app.
    expect(await open(ConsentPage, env, { redirect_url: "https://app.example.com/" })).toEqual({
      redirect: `/sign-in?pk=${pk}&redirect_url=${encodeURIComponent("https://app.example.com/")}`,
    });
    expect(await open(VerifyEmailPage, env)).toEqual({ redirect: `/sign-in?pk=${pk}` });

    const ada = await person(env);
    signIn(ada.token);
    const account = await open(AccountPage, env);
    expect(account).toMatchObject({ html: expect.stringContaining(ada.email) });
    expect(await open(NewOrganizationPage, env)).toMatchObject({ html: expect.any(String) });
  });

  it("send a session held by a gate to the gate's page, which renders for it", async () => {
    const env = await newEnvironment();
    await env.api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } });
    const ada = await person(env);
    signIn(ada.token);
    const consent = `/consent?pk=${env.publishableKey}`;
    expect(await open(AccountPage, env)).toEqual({ redirect: consent });
    expect(await open(NewOrganizationPage, env)).toEqual({ redirect: consent });
    expect(await open(ConsentPage, env)).toMatchObject({ html: expect.stringContaining("https://example.com/terms") });
    // Not this page's gate: on to the open one.
    expect(await open(VerifyEmailPage, env)).toMatchObject({ html: expect.stringContaining(`href="${consent}"`) });
  });

  it("sign-in renders signed out, and sends someone already signed in on: to the open gate, else the app", async () => {
    const env = await newEnvironment();
    expect(await open(SignInPage, env)).toMatchObject({ html: expect.stringContaining('name="password"') });
    const ada = await person(env);
    signIn(ada.token);
    const onwards = await open(SignInPage, env, { redirect_url: "/account" });
    expect(onwards).toEqual({ redirect: `http://localhost:3000/account?pk=${env.publishableKey}` });
    await env.api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } });
    expect(await open(SignInPage, env, { redirect_url: "/account" })).toEqual({ redirect: `/consent?pk=${env.publishableKey}&redirect_url=%2Faccount` });
  });

  it("tells a visitor with neither a sign-in challenge nor a session that the enrollment has expired", async () => {
    const env = await newEnvironment();
    expect(await open(MfaEnrollmentPage, env)).toMatchObject({ html: expect.stringContaining("Sign in again") });
  });
});

describe("loadOperation", () => {
  it("runs only reads: a page renders for prefetches and link previews too", async () => {
    const env = await newEnvironment();
    const ada = await person(env);
    signIn(ada.token);
    const context = await loadHostedPage(env.publishableKey);
    await expect(loadOperation({ ...context, flow: { publishableKey: env.publishableKey, redirectUrl: null } }, updateMeEndpoint, { body: {} })).rejects.toThrow(
      /not a read/,
    );
  });
});
