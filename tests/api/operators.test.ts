import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, environments, events, oneTimeCodes, operators, sessions, users } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { operatorSignInAction } from "@/lib/dashboard/actions/sign-in";
import { operatorSignOutAction } from "@/lib/dashboard/actions/sign-out";
import { DASHBOARD_COOKIE } from "@/lib/dashboard/auth";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { currentOperator } from "@/lib/dashboard/operator-session";
import { runOperatorAction } from "@/lib/dashboard/run-operator-action";
import { createSecretKey } from "@/lib/environments/api-keys";
import { listEnvironments } from "@/lib/environments/list-environments";
import { AppError } from "@/lib/errors";
import { IDLE_STATE, successState, type FormState } from "@/lib/hosted/form-state";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { createOperator } from "@/lib/operators/create-operator";
import { internalEnvironment, OPERATOR_SESSION_IDLE_SECONDS } from "@/lib/operators/internal-environment";
import { endOperatorSession, findOperatorSession } from "@/lib/operators/operator-sessions";
import { listOperators } from "@/lib/operators/operators";
import { removeOperator } from "@/lib/operators/remove-operator";
import { signInOperator } from "@/lib/operators/sign-in-operator";
import { describeSignInLink, issueOperatorSignInLink, setOperatorPassword } from "@/lib/operators/sign-in-link";
import { countUsersEndpoint, createUserEndpoint } from "@/lib/users/server-endpoints";
import { call, expectProblem, refusalOf, serverApi } from "../helpers/api";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { orRedirect, pageBrowser, signIn } from "../helpers/hosted-page-browser";

/* Operators of the dashboard: users of the internal environment, their one-time links, sign-in and sessions. */

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));

let ipCounter = 0;

/** A request context from an IP of its own, so the per-IP limits of one test do not spill into the next. */
function contextFrom(ip = `203.0.113.${(ipCounter += 1) % 250}`) {
  return { requestId: `req_operators_${ipCounter}`, ip, userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
}

/** The next request of the browser at the dashboard, from an IP of its own, carrying the cookies in its jar. */
function browse(ip = `198.51.100.${(ipCounter += 1) % 250}`) {
  const cookie = [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  pageBrowser.headers = new Headers({ host: "localhost:3000", "accept-language": "en", "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) });
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get("token") ?? "";
}

/** An operator with a password, signed in through the domain (no cookie). */
async function operatorWithPassword(role: "owner" | "admin" | "viewer" = "admin") {
  const email = uniqueEmail("operator");
  const { operator, signInLink } = await createOperator(getDb(), { email, role }, SYSTEM_ACTOR);
  await setOperatorPassword(getDb(), { token: tokenOf(signInLink.url), password: STRONG_PASSWORD }, contextFrom());
  return { ...operator, email };
}

/** A password sign-in that must open a session (the operator holds no second factor). */
async function signedInOperator(email: string, password: string, context = contextFrom()) {
  const step = await signInOperator(getDb(), { email, password }, context);
  if (step.kind !== "signed_in") throw new Error(`the sign-in answered ${step.kind}`);
  return step.signedIn;
}

function signInForm(email: string, password: string): FormData {
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  return form;
}

beforeEach(() => {
  signIn(null);
  browse();
});

describe("operator creation and the one-time sign-in link", () => {
  it("creates a user of the internal environment with a role, and a 24-hour link to /dashboard/set-password stored only as a hash", async () => {
    const email = uniqueEmail("new-operator");
    const { operator, signInLink } = await createOperator(getDb(), { email, role: "viewer" }, SYSTEM_ACTOR);
    const internal = await internalEnvironment(getDb());
    expect(operator).toMatchObject({ email, role: "viewer", passwordSet: false });
    const [user] = await getDb().select().from(users).where(eq(users.id, operator.userId));
    expect(user).toMatchObject({ environmentId: internal.id, email, passwordHash: null });

    const url = new URL(signInLink.url);
    expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/dashboard/set-password");
    const token = tokenOf(signInLink.url);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signInLink.expiresAt.getTime() - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    const [code] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, operator.userId));
    expect(code).toMatchObject({ purpose: "operator_sign_in_link", tokenHash: sha256(token), consumedAt: null });
    expect(JSON.stringify(code)).not.toContain(token);
    expect(Math.abs((code?.expiresAt.getTime() ?? 0) - signInLink.expiresAt.getTime())).toBeLessThan(5_000);

    // Reading the link (the page, a mail scanner) spends nothing.
    expect(await describeSignInLink(getDb(), token)).toEqual({ email });
    expect(await describeSignInLink(getDb(), token)).toEqual({ email });
    expect((await listOperators(getDb())).find((row) => row.id === operator.id)).toMatchObject({ role: "viewer", passwordSet: false });
  });

  it("refuses a second operator with the same address, in any spelling, and leaves nothing behind", async () => {
    const email = uniqueEmail("twice");
    await createOperator(getDb(), { email, role: "admin" }, SYSTEM_ACTOR);
    const before = (await listOperators(getDb())).length;
    const error = await refusalOf(createOperator(getDb(), { email: email.toUpperCase(), role: "owner" }, SYSTEM_ACTOR));
    expect(error.code).toBe("identifier_exists");
    expect((await listOperators(getDb())).length).toBe(before);
  });

  it("a link is single-use under 10 concurrent redemptions: exactly one sets the password, the others get invalid_code", async () => {
    const { operator, signInLink } = await createOperator(getDb(), { email: uniqueEmail("race"), role: "admin" }, SYSTEM_ACTOR);
    const token = tokenOf(signInLink.url);
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => setOperatorPassword(getDb(), { token, password: `${STRONG_PASSWORD} ${i}` }, contextFrom())),
    );
    const won = attempts.filter((attempt) => attempt.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const attempt of attempts) {
      if (attempt.status === "rejected") expect((attempt.reason as AppError).code).toBe("invalid_code");
    }
    expect(await describeSignInLink(getDb(), token)).toBeNull();
    // The winner's password is the one that works.
    const winner = attempts.findIndex((attempt) => attempt.status === "fulfilled");
    const signedIn = await signedInOperator(operator.email, `${STRONG_PASSWORD} ${winner}`);
    expect(signedIn.operator.id).toBe(operator.id);
  });

  it("an expired link is refused and shows as no longer working", async () => {
    const { operator, signInLink } = await createOperator(getDb(), { email: uniqueEmail("late"), role: "viewer" }, SYSTEM_ACTOR);
    await getDb()
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.userId, operator.userId));
    const token = tokenOf(signInLink.url);
    expect(await describeSignInLink(getDb(), token)).toBeNull();
    expect((await refusalOf(setOperatorPassword(getDb(), { token, password: STRONG_PASSWORD }, contextFrom()))).code).toBe("invalid_code");
  });

  it("a password the internal environment's policy refuses is a field error, and the link stays usable", async () => {
    const { signInLink } = await createOperator(getDb(), { email: uniqueEmail("weak"), role: "viewer" }, SYSTEM_ACTOR);
    const token = tokenOf(signInLink.url);
    const short = await refusalOf(setOperatorPassword(getDb(), { token, password: "short" }, contextFrom()));
    expect(short.code).toBe("password_too_weak");
    expect(short.fieldErrors?.[0]).toMatchObject({ field: "password", params: { reason: "too_short", min: 8 } });
    const common = await refusalOf(setOperatorPassword(getDb(), { token, password: "password123" }, contextFrom()));
    expect(common.fieldErrors?.[0]?.params).toMatchObject({ reason: "common" });
    expect(await setOperatorPassword(getDb(), { token, password: STRONG_PASSWORD }, contextFrom())).toHaveProperty("email");
  });

  it("a new link kills the previous one (operator link), and a wrong token is invalid_code", async () => {
    const { operator, signInLink } = await createOperator(getDb(), { email: uniqueEmail("relink"), role: "viewer" }, SYSTEM_ACTOR);
    const fresh = await issueOperatorSignInLink(getDb(), operator, SYSTEM_ACTOR);
    expect(await describeSignInLink(getDb(), tokenOf(signInLink.url))).toBeNull();
    expect(await describeSignInLink(getDb(), tokenOf(fresh.url))).toEqual({ email: operator.email });
    expect((await refusalOf(setOperatorPassword(getDb(), { token: "not-a-token", password: STRONG_PASSWORD }, contextFrom()))).code).toBe("invalid_code");
  });
});

describe("operator sign-in (the users' sign-in on the internal environment)", () => {
  it("the right password signs in with the operator's identity and a session in the internal environment", async () => {
    const operator = await operatorWithPassword("viewer");
    const signedIn = await signedInOperator(operator.email, STRONG_PASSWORD);
    expect(signedIn.operator).toEqual({ id: operator.id, email: operator.email, role: "viewer", hasSecondFactor: false, sessionProvedSecondFactor: false });
    const [session] = await getDb().select().from(sessions).where(eq(sessions.id, signedIn.sessionId));
    const internal = await internalEnvironment(getDb());
    expect(session).toMatchObject({ environmentId: internal.id, userId: operator.userId, status: "active" });
    // The operators' limits: 12 hours from sign-in.
    expect((session?.expiresAt.getTime() ?? 0) - (session?.createdAt.getTime() ?? 0)).toBe(12 * 3600_000);
  });

  it("a wrong password and an unknown address get the same invalid_credentials answer", async () => {
    const operator = await operatorWithPassword();
    const wrong = await refusalOf(signInOperator(getDb(), { email: operator.email, password: "not the password at all" }, contextFrom()));
    const unknown = await refusalOf(signInOperator(getDb(), { email: uniqueEmail("nobody"), password: STRONG_PASSWORD }, contextFrom()));
    expect([wrong.code, wrong.status, wrong.message]).toEqual([unknown.code, unknown.status, unknown.message]);
    expect(wrong.code).toBe("invalid_credentials");
    // An operator who has not used their link yet has no password: the same answer.
    const { operator: pending } = await createOperator(getDb(), { email: uniqueEmail("pending"), role: "viewer" }, SYSTEM_ACTOR);
    expect((await refusalOf(signInOperator(getDb(), { email: pending.email, password: STRONG_PASSWORD }, contextFrom()))).message).toBe(wrong.message);
  });

  it("is throttled like end-users: per address across IPs, and per IP across addresses (429 with Retry-After)", async () => {
    const operator = await operatorWithPassword();
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push((await refusalOf(signInOperator(getDb(), { email: operator.email, password: `wrong ${i}` }, contextFrom()))).code);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("invalid_credentials"));
    expect(answers[5]).toBe("rate_limited");
    const limited = await refusalOf(signInOperator(getDb(), { email: operator.email, password: STRONG_PASSWORD }, contextFrom()));
    expect(limited.code).toBe("rate_limited");
    expect(Number(limited.headers?.["retry-after"])).toBeGreaterThan(0);

    const ip = "192.0.2.77";
    const perIp: string[] = [];
    for (let i = 0; i < 6; i++) perIp.push((await refusalOf(signInOperator(getDb(), { email: uniqueEmail("spray"), password: "guess" }, contextFrom(ip)))).code);
    expect(perIp[5]).toBe("rate_limited");
  });
});

describe("operator sessions", () => {
  it("a removed operator's session is refused at once, a changed role applies at once, and the last owner cannot be removed", async () => {
    const operator = await operatorWithPassword("admin");
    const { sessionId } = await signedInOperator(operator.email, STRONG_PASSWORD);
    const claims = { operatorId: operator.id, sessionId };
    expect(await findOperatorSession(getDb(), claims)).toMatchObject({ id: operator.id, role: "admin" });

    await getDb().update(operators).set({ role: "viewer" }).where(eq(operators.id, operator.id));
    expect(await findOperatorSession(getDb(), claims)).toMatchObject({ role: "viewer" });

    await removeOperator(getDb(), operator, SYSTEM_ACTOR);
    expect(await findOperatorSession(getDb(), claims)).toBeNull();
    expect((await refusalOf(signInOperator(getDb(), { email: operator.email, password: STRONG_PASSWORD }, contextFrom()))).code).toBe("invalid_credentials");
    const internal = await internalEnvironment(getDb());
    const removed = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, internal.id), eq(events.subjectId, operator.userId), eq(events.type, "operator.removed")));
    expect(removed).toHaveLength(1);

    const owners = (await listOperators(getDb())).filter((row) => row.role === "owner");
    for (const owner of owners) await removeOperator(getDb(), owner, SYSTEM_ACTOR).catch(() => undefined);
    const last = (await listOperators(getDb())).filter((row) => row.role === "owner");
    const lastOwner = last[0] ?? (await operatorWithPassword("owner"));
    expect((await refusalOf(removeOperator(getDb(), lastOwner, SYSTEM_ACTOR))).code).toBe("forbidden");
  });

  it("sign-out revokes the session; 30 minutes idle and 12 hours after sign-in end it", async () => {
    const operator = await operatorWithPassword("viewer");
    const open = async () => ({ operatorId: operator.id, sessionId: (await signedInOperator(operator.email, STRONG_PASSWORD)).sessionId });

    const signedOut = await open();
    await endOperatorSession(getDb(), signedOut, contextFrom());
    expect(await findOperatorSession(getDb(), signedOut)).toBeNull();

    const idle = await open();
    await getDb()
      .update(sessions)
      .set({ lastActiveAt: new Date(Date.now() - (OPERATOR_SESSION_IDLE_SECONDS + 5) * 1000) })
      .where(eq(sessions.id, idle.sessionId));
    expect(await findOperatorSession(getDb(), idle)).toBeNull();

    const expired = await open();
    await getDb()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, expired.sessionId));
    expect(await findOperatorSession(getDb(), expired)).toBeNull();

    // A session of one operator never stands for another.
    const other = await operatorWithPassword("owner");
    const mine = await open();
    expect(await findOperatorSession(getDb(), { operatorId: other.id, sessionId: mine.sessionId })).toBeNull();
  });
});

describe("the internal environment is unreachable from the APIs", () => {
  it("no publishable key, Host, or secret key resolves it, and no listing shows it", async () => {
    const internal = await internalEnvironment(getDb());
    const byKey = await call("GET", "/_svc/environment", { headers: { "x-api-key": internal.publishableKey } });
    expectProblem(byKey, 401, "environment_not_found");

    // Even a frontend host planted on it by hand does not make the Host resolve it.
    await getDb().update(environments).set({ frontendHosts: ["operators.example.test"] }).where(eq(environments.id, internal.id));
    const byHost = await call("GET", "/_svc/environment", { headers: { host: "operators.example.test" } });
    expectProblem(byHost, 401, "environment_not_found");
    await getDb().update(environments).set({ frontendHosts: [] }).where(eq(environments.id, internal.id));

    // No secret key can be made for it, and a row planted by hand opens nothing.
    expect((await refusalOf(createSecretKey(getDb(), { id: internal.id, kind: "production" }))).code).toBe("resource_not_found");
    const planted = "sk_live_planted_key_for_the_internal_environment";
    await getDb().insert(apiKeys).values({ environmentId: internal.id, keyHash: sha256(planted), displayPrefix: "sk_live_plan…" });
    expectProblem(await serverApi(planted).post("/users/search", {}), 401, "unauthorized");

    expect((await listEnvironments(getDb())).map((row) => row.environmentId)).not.toContain(internal.id);
  });
});

describe("the dashboard's seam: next-auth sign-in, loadOperation and runOperatorAction", () => {
  it("signs in through next-auth's Credentials provider, loads through the Server API's operations, and is refused once removed", async () => {
    const env = await newEnvironment();
    await createUser(env.api, { email: uniqueEmail() });
    await createUser(env.api, { email: uniqueEmail() });
    const operator = await operatorWithPassword("viewer");

    // A wrong password: the form's error, no cookie.
    const wrong = await orRedirect(() => operatorSignInAction(IDLE_STATE, signInForm(operator.email, "wrong password here")));
    expect(wrong).toMatchObject({ status: "error", message: "The email or password is wrong." });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);

    browse();
    const signedIn = await orRedirect(() => operatorSignInAction(IDLE_STATE, signInForm(operator.email, STRONG_PASSWORD)));
    expect(signedIn).toEqual({ redirect: "/dashboard" });
    expect(pageBrowser.jar.get(DASHBOARD_COOKIE)).toBeTruthy();
    // The cookie is next-auth's encrypted JWT: it names no one in clear.
    expect(pageBrowser.jar.get(DASHBOARD_COOKIE)).not.toContain(operator.id);

    browse();
    expect(await currentOperator()).toEqual({ id: operator.id, email: operator.email, role: "viewer", hasSecondFactor: false, sessionProvedSecondFactor: false });
    const count = await loadOperation(countUsersEndpoint, {}, { environmentId: env.environmentId });
    expect(count).toEqual({ kind: "ok", data: { count: 2 } });

    // A viewer's form post is refused as the Server API refuses it, and nothing is written.
    const refused = await runOperatorAction(createUserEndpoint, { body: { email: uniqueEmail() } }, { environmentId: env.environmentId, fields: ["email"], then: () => successState("created") });
    expect(refused).toMatchObject({ status: "error" });
    expect((await env.api.get("/users/count")).body.count).toBe(2);

    // The internal environment is not one the dashboard can act in.
    const internal = await internalEnvironment(getDb());
    expect((await loadOperation(countUsersEndpoint, {}, { environmentId: internal.id })).kind).toBe("not_found");

    await removeOperator(getDb(), operator, SYSTEM_ACTOR);
    browse();
    expect(await orRedirect(() => loadOperation(countUsersEndpoint, {}, { environmentId: env.environmentId }))).toEqual({ redirect: "/dashboard/sign-in?ended=1" });
    const action = await orRedirect(() => runOperatorAction(createUserEndpoint, { body: {} }, { environmentId: env.environmentId, fields: [], then: () => successState(null) }));
    expect(action).toEqual({ redirect: "/dashboard/sign-in?ended=1" });
  });

  it("an admin's dashboard action writes through the Server API's rules and gives the same error for the same bad input", async () => {
    const env = await newEnvironment();
    const operator = await operatorWithPassword("admin");
    await orRedirect(() => operatorSignInAction(IDLE_STATE, signInForm(operator.email, STRONG_PASSWORD)));
    browse();
    const created = (await runOperatorAction(createUserEndpoint, { body: { email: uniqueEmail() } }, {
      environmentId: env.environmentId,
      fields: ["email"],
      then: (user) => successState(user?.id ?? null),
    })) as FormState;
    expect(created.status).toBe("success");
    const bad = await runOperatorAction(createUserEndpoint, { body: { email: "not an email" } }, { environmentId: env.environmentId, fields: ["email"], values: { email: "not an email" }, then: () => successState(null) });
    expect(bad.fieldErrors.email).toBe("Enter an email address like name@example.com.");
    expectProblem(await env.api.post("/users", { email: "not an email" }), 400, "invalid_request");
    const rows = await getDb().select().from(events).where(and(eq(events.environmentId, env.environmentId), eq(events.type, "user.created")));
    expect(rows.map((row) => [row.actorType, row.actorId])).toEqual([["operator", operator.id]]);

    // Sign-out revokes the session and clears the cookie; a copy of the cookie kept from before is dead too.
    const kept = pageBrowser.jar.get(DASHBOARD_COOKIE);
    expect(await orRedirect(() => operatorSignOutAction())).toEqual({ redirect: "/dashboard/sign-in?signedOut=1" });
    expect(pageBrowser.jar.has(DASHBOARD_COOKIE)).toBe(false);
    pageBrowser.jar.set(DASHBOARD_COOKIE, kept ?? "");
    browse();
    expect(await currentOperator()).toBeNull();
  });

  it("signed out, pages redirect to the sign-in page", async () => {
    const env = await newEnvironment();
    expect(await currentOperator()).toBeNull();
    // Never signed in: the plain sign-in page, no "your session has ended".
    expect(await orRedirect(() => loadOperation(countUsersEndpoint, {}, { environmentId: env.environmentId }))).toEqual({ redirect: "/dashboard/sign-in" });
  });
});
