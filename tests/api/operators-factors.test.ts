import { and, eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import DashboardAccountPage from "@/app/(dashboard)/dashboard/account/page";
import DashboardHomePage from "@/app/(dashboard)/dashboard/page";
import DashboardSecondStepPage from "@/app/(dashboard)/dashboard/sign-in/verify/page";
import { getDb } from "@/db/client";
import { environments, events, sessions } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import {
  operatorPasskeyListAction,
  operatorPasskeyRegistrationOptionsAction,
  operatorRegisterPasskeyAction,
  operatorTurnOffTwoStepAction,
  operatorTwoStepAction,
} from "@/lib/dashboard/actions/account";
import { operatorPasskeyOptionsAction, operatorPasskeyVerifyAction, operatorSecondFactorAction } from "@/lib/dashboard/actions/second-factor";
import { operatorSignInAction } from "@/lib/dashboard/actions/sign-in";
import { operatorSignInAgainAction, operatorSignOutAction } from "@/lib/dashboard/actions/sign-out";
import { authorizeOperator, DASHBOARD_COOKIE, OperatorSignInRefused, signIn } from "@/lib/dashboard/auth";
import { currentOperator } from "@/lib/dashboard/operator-session";
import { runOperatorAction } from "@/lib/dashboard/run-operator-action";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { findEnvironment } from "@/lib/environments/context";
import { IDLE_STATE, successState } from "@/lib/hosted/form-state";
import { createImpersonationTokenEndpoint } from "@/lib/impersonation/server-endpoints";
import type { OperatorIdentity } from "@/lib/operation/caller";
import { createOperator } from "@/lib/operators/create-operator";
import { internalEnvironment } from "@/lib/operators/internal-environment";
import { findOperatorSession } from "@/lib/operators/operator-sessions";
import { resetOperatorFactors } from "@/lib/operators/reset-operator-factors";
import { completeOperatorSignIn } from "@/lib/operators/sign-in-operator";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { banUserEndpoint, countUsersEndpoint, createUserEndpoint, searchUsersEndpoint } from "@/lib/users/server-endpoints";
import { refusalOf } from "../helpers/api";
import { latestEmail } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { orRedirect, pageBrowser, signIn as freshBrowser } from "../helpers/hosted-page-browser";
import { awayFromStepEdge, forgetUsedSteps, mfaToken as customerMfaToken, mfaUser, totpCode, wrongCode } from "../helpers/mfa";
import { withMode } from "../helpers/mode";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator";

/*
 * Operators' second factors: the second step of a dashboard sign-in (an authenticator
 * code, a recovery code or a passkey, by the end-users' own rules), the account page
 * that sets them up, and the production rule that holds a factorless owner or admin
 * to reading.
 */

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

const ORIGIN = "http://localhost:3000";
const PENDING_COOKIE = "gh_operator_mfa";
let ipCounter = 0;

/** The browser's next request to the dashboard, from an IP of its own, with its jar's cookies; `host` as it claims. */
function browse(host = "localhost:3000", extra: Record<string, string> = {}) {
  const cookie = [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  pageBrowser.headers = new Headers({
    host,
    "accept-language": "en",
    "x-forwarded-for": `198.51.100.${(ipCounter += 1) % 250}`,
    ...extra,
    ...(cookie ? { cookie } : {}),
  });
}

function contextFrom() {
  ipCounter += 1;
  return { requestId: `req_factors_${ipCounter}`, ip: `203.0.113.${ipCounter % 250}`, userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function operatorWithPassword(role: "owner" | "admin" | "viewer" = "admin") {
  const email = uniqueEmail("factor-operator");
  const { operator, signInLink } = await createOperator(getDb(), { email, role }, SYSTEM_ACTOR);
  const token = new URL(signInLink.url).searchParams.get("token") ?? "";
  await setOperatorPassword(getDb(), { token, password: STRONG_PASSWORD }, contextFrom());
  return { ...operator, email };
}

/** The password form, as the browser posts it; where it sends the browser. */
async function passwordStep(email: string, password = STRONG_PASSWORD): Promise<unknown> {
  browse();
  const answer = await orRedirect(() => operatorSignInAction(IDLE_STATE, form({ email, password })));
  browse();
  return answer;
}

/** The pending second step's mfaToken, as its cookie holds it. */
function pendingToken(): string {
  const raw = pageBrowser.jar.get(PENDING_COOKIE);
  if (!raw) throw new Error("no pending second step");
  return (JSON.parse(raw) as { token: string }).token;
}

/** The code form of the second step; where it sends the browser, or its state. */
async function codeStep(code: string, method: "totp" | "recovery" = "totp") {
  browse();
  const answer = await orRedirect(() => operatorSecondFactorAction(IDLE_STATE, form({ code, method })));
  browse();
  return answer;
}

async function signOut() {
  browse();
  await orRedirect(() => operatorSignOutAction());
  browse();
}

/** Sets up the authenticator app from the account page, as the operator does: start, scan, confirm; returns the key and the codes. */
async function enrollAuthenticator(userId: string) {
  browse();
  const started = await operatorTwoStepAction(IDLE_STATE, form({ intent: "start" }));
  const secret = started.totpEnrollment?.secret;
  if (!secret) throw new Error(`no setup: ${JSON.stringify(started)}`);
  await awayFromStepEdge();
  const confirmed = await operatorTwoStepAction(started, form({ intent: "confirm", code: totpCode(secret), ...started.totpEnrollment }));
  if (!confirmed.recoveryCodes) throw new Error(`not confirmed: ${JSON.stringify(confirmed)}`);
  // The confirmation spent this step; the next sign-in's code may be of the same step.
  await forgetUsedSteps(userId);
  return { secret, recoveryCodes: confirmed.recoveryCodes, provisioning: started.totpEnrollment };
}

/** The internal environment's rate limits, lifted (a test signs in many times from one account) or back to their defaults. */
async function internalRateLimits(lifted: boolean) {
  const internal = await internalEnvironment(getDb());
  const limit = lifted ? { limit: 10_000, windowSeconds: 10 } : undefined;
  const rateLimits = lifted ? { ...internal.settings.rateLimits, signIn: limit, codeAttempts: limit } : { ...internal.settings.rateLimits, signIn: { limit: 5, windowSeconds: 10 }, codeAttempts: { limit: 3, windowSeconds: 10 } };
  await getDb().update(environments).set({ settings: { ...internal.settings, rateLimits } }).where(eq(environments.id, internal.id));
}

beforeAll(() => internalRateLimits(true));

beforeEach(() => {
  freshBrowser(null);
  browse();
});

describe("the second step of an operator's sign-in", () => {
  it("an authenticator app set up on the account page makes the password lead to a second step; only the right code opens the session", async () => {
    const operator = await operatorWithPassword("admin");
    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard" });
    const { secret, recoveryCodes, provisioning } = await enrollAuthenticator(operator.userId);
    // The app's entry names the dashboard and the operator's address; ten recovery codes, shown once.
    expect(decodeURIComponent(provisioning?.otpauthUri ?? "")).toContain(`Gatehouse dashboard:${operator.email}`);
    expect(recoveryCodes).toHaveLength(10);
    // The operator's address is told, as an end-user's is, with a link to the dashboard's account page.
    const notice = await latestEmail(operator.email, "mfa_enabled");
    expect(notice.text).toContain(`${ORIGIN}/dashboard/account`);
    expect(notice.text).not.toContain("pk_");
    browse();
    expect(await currentOperator()).toMatchObject({ id: operator.id, hasSecondFactor: true });
    await signOut();

    // The right password: no session, the challenge in an HttpOnly cookie on /dashboard, nothing in the URL.
    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard/sign-in/verify" });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
    const mfaToken = pendingToken();
    expect(mfaToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await currentOperator()).toBeNull();
    const page = renderToStaticMarkup(await DashboardSecondStepPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("Authenticator code");
    expect(page).toContain("Use a recovery code instead");
    expect(page).not.toContain(mfaToken);

    // The mfaToken alone, or with an empty or wrong code, opens nothing.
    for (const credentials of [{ mfaToken }, { mfaToken, code: "" }, { mfaToken, code: wrongCode(secret) }, { mfaToken, passkey: "{}" }]) {
      const refused = await signIn("credentials", { ...credentials, redirect: false }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(OperatorSignInRefused);
      expect((refused as OperatorSignInRefused).refusal.code).toBe("invalid_code");
      expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
    }
    // An empty submit is a slip, not a guess; a wrong code says so next to the field.
    expect(await codeStep("")).toMatchObject({ status: "error", fieldErrors: { code: "Fill in this field." } });
    expect(await codeStep(wrongCode(secret))).toMatchObject({ status: "error", fieldErrors: { code: expect.stringContaining("That code is wrong") } });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);

    // Where the step goes on to is checked again when read back: a cookie naming another site leads to the overview.
    const pending = JSON.parse(pageBrowser.jar.get(PENDING_COOKIE) ?? "{}") as Record<string, unknown>;
    pageBrowser.jar.set(PENDING_COOKIE, JSON.stringify({ ...pending, next: "https://evil.example/" }));
    const code = totpCode(secret);
    expect(await codeStep(code)).toEqual({ redirect: "/dashboard" });
    expect(pageBrowser.jar.get(DASHBOARD_COOKIE)).toBeTruthy();
    expect(pageBrowser.jar.has(PENDING_COOKIE)).toBe(false);
    expect(await currentOperator()).toEqual({ id: operator.id, email: operator.email, role: "admin", hasSecondFactor: true, sessionProvedSecondFactor: true });
    // Regression: a pending step's cookie named gh_dashboard_… was read by next-auth as a chunk of its session cookie, ending the session.
    pageBrowser.jar.set(PENDING_COOKIE, JSON.stringify({ token: mfaToken, factors: ["totp"], next: "/dashboard" }));
    browse();
    expect(await currentOperator()).toMatchObject({ id: operator.id });
    pageBrowser.jar.delete(PENDING_COOKIE);
    const internal = await internalEnvironment(getDb());
    const [opened] = await getDb().select().from(sessions).where(and(eq(sessions.userId, operator.userId), eq(sessions.environmentId, internal.id))).orderBy(sessions.createdAt);
    expect(opened).toBeDefined();
    const latest = (await getDb().select().from(sessions).where(eq(sessions.userId, operator.userId))).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
    expect(latest).toMatchObject({ amr: ["pwd", "otp"], aal: 2 });

    // A replayed code: the step it belongs to is spent, so a new sign-in cannot use it again.
    await signOut();
    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard/sign-in/verify" });
    expect(await codeStep(code)).toMatchObject({ status: "error" });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);

    // A recovery code works once.
    const recovery = recoveryCodes[0] ?? "";
    expect(await codeStep(recovery, "recovery")).toEqual({ redirect: "/dashboard" });
    await signOut();
    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard/sign-in/verify" });
    expect(await codeStep(recovery, "recovery")).toMatchObject({ status: "error" });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
  });

  it("the mfaToken is single-use, dies after 5 wrong codes, is bound to the internal environment, and the throttles are the end-users'", async () => {
    const operator = await operatorWithPassword("owner");
    await passwordStep(operator.email);
    const { secret } = await enrollAuthenticator(operator.userId);
    await signOut();

    await passwordStep(operator.email);
    const mfaToken = pendingToken();
    for (let i = 0; i < 5; i++) expect((await refusalOf(completeOperatorSignIn(getDb(), { mfaToken, code: wrongCode(secret) }, contextFrom()))).code).toBe("invalid_code");
    expect((await refusalOf(completeOperatorSignIn(getDb(), { mfaToken, code: totpCode(secret) }, contextFrom()))).code).toBe("invalid_code");

    // Spent once: a second redemption of a won token opens nothing.
    await passwordStep(operator.email);
    const won = pendingToken();
    await completeOperatorSignIn(getDb(), { mfaToken: won, code: totpCode(secret) }, contextFrom());
    await forgetUsedSteps(operator.userId);
    expect((await refusalOf(completeOperatorSignIn(getDb(), { mfaToken: won, code: totpCode(secret) }, contextFrom()))).code).toBe("invalid_code");

    // An end-user's mfaToken of a customer environment is nothing here.
    const env = await newEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    const foreign = await customerMfaToken(env.publishableKey, user.email);
    expect((await refusalOf(completeOperatorSignIn(getDb(), { mfaToken: foreign, code: totpCode(user.secret) }, contextFrom()))).code).toBe("invalid_code");

    // The per-account limit of code attempts (lifted for this file's other tests): 3 in 10 s, whichever token.
    const fresh = await operatorWithPassword("admin");
    await passwordStep(fresh.email);
    const freshFactor = await enrollAuthenticator(fresh.userId);
    await signOut();
    await passwordStep(fresh.email);
    const throttled = pendingToken();
    await internalRateLimits(false);
    try {
      const answers: string[] = [];
      for (let i = 0; i < 4; i++) answers.push((await refusalOf(completeOperatorSignIn(getDb(), { mfaToken: throttled, code: wrongCode(freshFactor.secret) }, contextFrom()))).code);
      expect(answers).toEqual(["invalid_code", "invalid_code", "invalid_code", "rate_limited"]);
    } finally {
      await internalRateLimits(true);
    }
  });

  it("a passkey is an operator's second factor on its own: registered on the account page, asserted for PUBLIC_URL's host whatever Host the request names", async () => {
    const operator = await operatorWithPassword("admin");
    await passwordStep(operator.email);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const registration = await operatorPasskeyRegistrationOptionsAction(form({}));
    expect(registration.registration?.rp.id).toBe("localhost");
    const added = await operatorRegisterPasskeyAction(form({ name: "Work laptop", response: JSON.stringify(authenticator.register(registration.registration as never)) }));
    expect(added).toMatchObject({ status: "success", message: "Your passkey is added." });
    expect((await latestEmail(operator.email, "passkey_added")).text).toContain(`${ORIGIN}/dashboard/account`);
    browse();
    expect(await currentOperator()).toMatchObject({ hasSecondFactor: true });
    await signOut();

    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard/sign-in/verify" });
    expect(JSON.parse(pageBrowser.jar.get(PENDING_COOKIE) ?? "{}")).toMatchObject({ factors: ["passkey"] });
    const page = renderToStaticMarkup(await DashboardSecondStepPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("Use your passkey to finish signing in.");
    expect(page).not.toContain("Authenticator code");

    // A request claiming another Host still gets the dashboard's relying party.
    browse("evil.example", { "x-forwarded-host": "evil.example" });
    const options = await operatorPasskeyOptionsAction(form({}));
    expect(options.authentication?.rpId).toBe("localhost");
    const assertion = JSON.stringify(authenticator.assert(options.authentication as never));
    // An assertion made for another origin is refused.
    const phished = JSON.stringify(new SoftwareAuthenticator("http://evil.example").assert(options.authentication as never));
    expect(await operatorPasskeyVerifyAction(form({ response: phished }))).toMatchObject({ status: "error" });
    browse();
    expect(await orRedirect(() => operatorPasskeyVerifyAction(form({ response: assertion })))).toEqual({ redirect: "/dashboard" });
    browse();
    expect(await currentOperator()).toMatchObject({ id: operator.id, hasSecondFactor: true });

    // The same assertion again, for a new sign-in: its challenge is spent.
    await signOut();
    await passwordStep(operator.email);
    expect(await operatorPasskeyVerifyAction(form({ response: assertion }))).toMatchObject({ status: "error" });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
  });

  it("without a pending step the page says the sign-in is over, and authorize refuses a bare mfaToken or nothing at all", async () => {
    const page = renderToStaticMarkup(await DashboardSecondStepPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("This sign-in has expired or is already finished.");
    expect(await operatorSecondFactorAction(IDLE_STATE, form({ code: "123456" }))).toMatchObject({ status: "error", message: "This sign-in has expired or is already finished." });
    const request = new Request(`${ORIGIN}/dashboard/api/auth/callback/credentials`, { method: "POST", headers: { "x-forwarded-for": "127.0.0.1" } });
    for (const credentials of [{}, { mfaToken: "x".repeat(43) }, { mfaToken: "x".repeat(43), code: "123456" }]) {
      const refused = await authorizeOperator(credentials, request).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(OperatorSignInRefused);
    }
  });
});

describe("the account page", () => {
  it("shows the factors; removing one needs a recent sign-in, like an end-user's; recovery codes regenerate; every change is emailed", async () => {
    const operator = await operatorWithPassword("admin");
    await passwordStep(operator.email);
    let page = renderToStaticMarkup(await DashboardAccountPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("Account security");
    expect(page).toContain("Off: your password or single sign-on alone signs you in.");
    expect(page).toContain('aria-current="page"');
    const { secret, recoveryCodes } = await enrollAuthenticator(operator.userId);
    browse();
    page = renderToStaticMarkup(await DashboardAccountPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("On: every sign-in asks for your authenticator app");
    expect(page).toContain("Unused recovery codes: 10");

    // New recovery codes: the old ones die.
    const regenerated = await operatorTwoStepAction(IDLE_STATE, form({ intent: "regenerate" }));
    expect(regenerated.recoveryCodes).toHaveLength(10);
    expect(regenerated.recoveryCodes).not.toContain(recoveryCodes[0]);
    expect((await latestEmail(operator.email, "recovery_codes_regenerated")).text).toContain(`${ORIGIN}/dashboard/account`);

    // A sign-in older than the window (10 minutes): the change is refused, the page offers to sign in again.
    const internal = await internalEnvironment(getDb());
    await getDb()
      .update(sessions)
      .set({ lastVerifiedAt: new Date(Date.now() - 3600_000) })
      .where(and(eq(sessions.userId, operator.userId), eq(sessions.environmentId, internal.id)));
    browse();
    page = renderToStaticMarkup(await DashboardAccountPage({ searchParams: Promise.resolve({}) }));
    expect(page).toContain("Sign in again to make changes");
    const stale = await operatorTurnOffTwoStepAction(IDLE_STATE, form({ code: totpCode(secret) }));
    expect(stale).toMatchObject({ status: "error", message: "Your sign-in is too old for this change. Sign in again first." });
    expect(await currentOperator()).toMatchObject({ hasSecondFactor: true });
    expect(await orRedirect(() => operatorSignInAgainAction())).toEqual({ redirect: "/dashboard/sign-in?reauth=1&next=%2Fdashboard%2Faccount" });
    browse();

    // Signed in again (second step included), back on the account page, the app goes with a current code.
    await forgetUsedSteps(operator.userId);
    browse();
    expect(await orRedirect(() => operatorSignInAction(IDLE_STATE, form({ email: operator.email, password: STRONG_PASSWORD, next: "/dashboard/account" })))).toEqual({
      redirect: "/dashboard/sign-in/verify",
    });
    expect(await codeStep(totpCode(secret))).toEqual({ redirect: "/dashboard/account" });
    await forgetUsedSteps(operator.userId);
    expect(await operatorTurnOffTwoStepAction(IDLE_STATE, form({ code: wrongCode(secret) }))).toMatchObject({ status: "error" });
    expect(await operatorTurnOffTwoStepAction(IDLE_STATE, form({ code: totpCode(secret) }))).toMatchObject({ status: "success", message: "Your authenticator app is off." });
    expect((await latestEmail(operator.email, "mfa_disabled")).text).toContain(`${ORIGIN}/dashboard/account`);
    browse();
    expect(await currentOperator()).toMatchObject({ hasSecondFactor: false });

    // A passkey, then its removal (the same window applies; told by email).
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const registration = await operatorPasskeyRegistrationOptionsAction(form({}));
    await operatorRegisterPasskeyAction(form({ response: JSON.stringify(authenticator.register(registration.registration as never)) }));
    browse();
    page = renderToStaticMarkup(await DashboardAccountPage({ searchParams: Promise.resolve({}) }));
    const passkeyId = /value="remove:([0-9a-f-]{36})"/.exec(page)?.[1] ?? "";
    expect(passkeyId).not.toBe("");
    const removed = await operatorPasskeyListAction(IDLE_STATE, form({ intent: `remove:${passkeyId}` }));
    expect(removed).toMatchObject({ status: "success", message: "The passkey is removed." });
    expect((await latestEmail(operator.email, "passkey_removed")).text).toContain(`${ORIGIN}/dashboard/account`);
    browse();
    expect(await currentOperator()).toMatchObject({ hasSecondFactor: false });
    const rows = await getDb().select().from(events).where(and(eq(events.environmentId, internal.id), eq(events.subjectId, operator.userId)));
    expect(rows.map((row) => row.type)).toEqual(expect.arrayContaining(["user.mfa_enabled", "user.recovery_codes_regenerated", "user.mfa_disabled", "passkey.added", "passkey.removed"]));
  });

  it("an operator who lost every factor is reset from the command line: factors gone, sessions ended, told by email", async () => {
    const operator = await operatorWithPassword("owner");
    await passwordStep(operator.email);
    await enrollAuthenticator(operator.userId);
    browse();
    expect(await currentOperator()).toMatchObject({ hasSecondFactor: true });
    await resetOperatorFactors(getDb(), operator, SYSTEM_ACTOR);
    browse();
    expect(await currentOperator()).toBeNull();
    expect((await latestEmail(operator.email, "second_factors_reset")).text).toContain(`${ORIGIN}/dashboard/account`);
    freshBrowser(null);
    expect(await passwordStep(operator.email)).toEqual({ redirect: "/dashboard" });
    expect(await currentOperator()).toMatchObject({ id: operator.id, hasSecondFactor: false });
  });

  it("a return path after sign-in is only ever a dashboard page", async () => {
    const operator = await operatorWithPassword("viewer");
    for (const next of ["https://evil.example/", "//evil.example", "/dashboard/../account", "/account", "/dashboard/sign-in/verify"]) {
      freshBrowser(null);
      browse();
      expect(await orRedirect(() => operatorSignInAction(IDLE_STATE, form({ email: operator.email, password: STRONG_PASSWORD, next })))).toEqual({ redirect: "/dashboard" });
    }
  });
});

describe("in production, an owner or admin without a second factor may only read", () => {
  async function environmentOf(environmentId: string) {
    const environment = await findEnvironment(getDb(), environmentId);
    if (!environment) throw new Error("no environment");
    return environment;
  }

  /** An operator as a dashboard request finds them: signed in with the password, read back with their factors. */
  async function signedInIdentity(operator: { id: string; email: string; userId: string }): Promise<OperatorIdentity> {
    const answer = await passwordStep(operator.email);
    expect(answer).toEqual({ redirect: "/dashboard" });
    const identity = await currentOperator();
    if (!identity) throw new Error("not signed in");
    return identity;
  }

  it("refuses a factorless admin's writes with operator_second_factor_required and allows reads; allowed with a factor, and outside production", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const user = await createUser(env.api, { email: uniqueEmail() });
    const admin = await operatorWithPassword("admin");
    const identity = await signedInIdentity(admin);
    expect(identity.hasSecondFactor).toBe(false);
    const context = contextFrom();

    await withMode("production", async () => {
      const refused = await refusalOf(runOperatorOperation(banUserEndpoint, identity, environment, { params: { userId: user.id } }, context));
      expect([refused.code, refused.status]).toEqual(["operator_second_factor_required", 403]);
      expect(refused.properties).toMatchObject({ permission: "write" });
      // Minting a secret (an impersonation token) needs more than reading: refused too. Nothing was written.
      const minting = runOperatorOperation(createImpersonationTokenEndpoint, identity, environment, { body: { userId: user.id, actorId: identity.id } }, context);
      expect((await refusalOf(minting)).code).toBe("operator_second_factor_required");
      expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("active");
      // Reads go on.
      expect(await runOperatorOperation(countUsersEndpoint, identity, environment, {}, context)).toEqual({ count: 1 });
      expect((await runOperatorOperation(searchUsersEndpoint, identity, environment, { body: {}, query: {} }, context))?.items).toHaveLength(1);
      // A dashboard form says why, in the dashboard's words; the banner on every page says where to go.
      const action = await runOperatorAction(createUserEndpoint, { body: { email: uniqueEmail() } }, { environmentId: env.environmentId, fields: ["email"], then: () => successState("created") });
      expect(action).toMatchObject({ status: "error", message: "Changes need a sign-in with a second factor: add one in Account security, or sign in again with yours. Until then you can only read here." });
      browse();
      const home = renderToStaticMarkup(await DashboardHomePage({ searchParams: Promise.resolve({ env: env.environmentId }) }));
      expect(home).toContain('data-testid="second-factor-banner"');
      expect(home).toContain("Owners and admins can only read here until they protect their account");
      expect(home).toContain('href="/dashboard/account"');
    });

    // Outside production the same operator writes; the banner only says what production will ask.
    expect(await runOperatorOperation(banUserEndpoint, identity, environment, { params: { userId: user.id } }, context)).toMatchObject({ status: "banned" });
    browse();
    const development = renderToStaticMarkup(await DashboardHomePage({ searchParams: Promise.resolve({ env: env.environmentId }) }));
    expect(development).toContain('data-testid="second-factor-banner"');
    expect(development).toContain("In production, owners and admins without an authenticator app or a passkey can only read.");

    // Regression (review): a factor added on the account page does not lift the session that a password
    // alone opened (else a thief's password session would gain writes when the owner enrolled); the banner
    // says to sign in again with it. A sign-in with the factor writes, and the banner is gone.
    const { secret } = await enrollAuthenticator(admin.userId);
    browse();
    const enrolling = await currentOperator();
    expect(enrolling).toMatchObject({ hasSecondFactor: true, sessionProvedSecondFactor: false });
    await withMode("production", async () => {
      if (!enrolling) throw new Error("not signed in");
      expect((await refusalOf(runOperatorOperation(createUserEndpoint, enrolling, environment, { body: { email: uniqueEmail() } }, context))).code).toBe(
        "operator_second_factor_required",
      );
      browse();
      expect(renderToStaticMarkup(await DashboardHomePage({ searchParams: Promise.resolve({ env: env.environmentId }) }))).toContain("Sign in again with your second factor");
    });
    await signOut();
    expect(await passwordStep(admin.email)).toEqual({ redirect: "/dashboard/sign-in/verify" });
    await awayFromStepEdge();
    expect(await codeStep(totpCode(secret))).toEqual({ redirect: "/dashboard" });
    const protectedIdentity = await currentOperator();
    expect(protectedIdentity).toMatchObject({ hasSecondFactor: true, sessionProvedSecondFactor: true });
    await withMode("production", async () => {
      if (!protectedIdentity) throw new Error("not signed in");
      expect(await runOperatorOperation(createUserEndpoint, protectedIdentity, environment, { body: { email: uniqueEmail() } }, context)).toHaveProperty("id");
      browse();
      expect(renderToStaticMarkup(await DashboardHomePage({ searchParams: Promise.resolve({ env: env.environmentId }) }))).not.toContain("second-factor-banner");
    });
  });

  it("a viewer needs no factor and sees no banner; an owner is held like an admin; the factor is read afresh on every request", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const viewer = await operatorWithPassword("viewer");
    const viewerIdentity = await signedInIdentity(viewer);
    const context = contextFrom();
    await withMode("production", async () => {
      expect(await runOperatorOperation(countUsersEndpoint, viewerIdentity, environment, {}, context)).toEqual({ count: 0 });
      // A viewer's write is refused for the role, not for a factor.
      expect((await refusalOf(runOperatorOperation(createUserEndpoint, viewerIdentity, environment, { body: { email: uniqueEmail() } }, context))).code).toBe("forbidden");
      browse();
      expect(renderToStaticMarkup(await DashboardHomePage({ searchParams: Promise.resolve({ env: env.environmentId }) }))).not.toContain("second-factor-banner");
    });

    freshBrowser(null);
    const owner = await operatorWithPassword("owner");
    const ownerIdentity = await signedInIdentity(owner);
    const internal = await internalEnvironment(getDb());
    await withMode("production", async () => {
      expect((await refusalOf(runOperatorOperation(createUserEndpoint, ownerIdentity, environment, { body: { email: uniqueEmail() } }, context))).code).toBe(
        "operator_second_factor_required",
      );
    });

    // Regression (review): a session a password alone opened (a thief's, say) while the owner had no factor
    // ends when the owner adds their first one in another session; it never gains the factor's writes.
    const [thief] = await getDb().select().from(sessions).where(and(eq(sessions.userId, owner.userId), eq(sessions.environmentId, internal.id)));
    if (!thief) throw new Error("no session");
    freshBrowser(null);
    await signedInIdentity(owner);
    await enrollAuthenticator(owner.userId);
    expect(await findOperatorSession(getDb(), { operatorId: owner.id, sessionId: thief.id })).toBeNull();
    const [ended] = await getDb().select().from(sessions).where(eq(sessions.id, thief.id));
    expect(ended?.status).toBe("revoked");
    // The enrolling session stays, still short of the factor for the production rule.
    browse();
    expect(await currentOperator()).toMatchObject({ id: owner.id, hasSecondFactor: true, sessionProvedSecondFactor: false });
  });
});
