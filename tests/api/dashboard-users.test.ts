import { beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { operatorSignInAction } from "@/lib/dashboard/actions/sign-in";
import {
  banUserAction,
  createUserAction,
  deleteUserAction,
  impersonateUserAction,
  revokeAllSessionsAction,
  updateUserMetadataAction,
} from "@/lib/dashboard/actions/users";
import { IDLE_STATE, type FormState } from "@/lib/hosted/form-state";
import { impersonationLanding } from "@/lib/hosted/impersonation-landing";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { createOperator } from "@/lib/operators/create-operator";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { SESSION_COOKIE } from "@/lib/sessions/cookies";
import { expectProblem } from "../helpers/api";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { orRedirect, pageBrowser, signIn } from "../helpers/hosted-page-browser";

/* The Users screens' server actions, posted without the page: who may, what they refuse, and the impersonation landing. */

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
vi.mock("next/cache", () => ({ refresh: () => undefined }));

let ip = 0;
/** The browser's next request at the dashboard (or a tenant host), with the cookies in its jar. */
function browse(host = "localhost:3000", extra: Record<string, string> = {}) {
  const cookie = [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  pageBrowser.headers = new Headers({ host, "accept-language": "en", "x-forwarded-for": `198.51.100.${(ip += 1) % 250}`, ...(cookie ? { cookie } : {}), ...extra });
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

/** Signs the browser in to the dashboard as a new operator of this role. */
async function signInAs(role: "owner" | "admin" | "viewer") {
  const email = uniqueEmail(`op-${role}`);
  const { operator, signInLink } = await createOperator(getDb(), { email, role }, SYSTEM_ACTOR);
  const context = { requestId: "req_dashboard_users", ip: `203.0.113.${(ip += 1) % 250}`, userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
  await setOperatorPassword(getDb(), { token: new URL(signInLink.url).searchParams.get("token") ?? "", password: STRONG_PASSWORD }, context);
  browse();
  await orRedirect(() => operatorSignInAction(IDLE_STATE, formOf({ email, password: STRONG_PASSWORD })));
  browse();
  return operator;
}

/** Runs an action as a form post; Next's redirect signal answers its target. */
function post(action: (state: FormState, form: FormData) => Promise<FormState>, fields: Record<string, string>) {
  return orRedirect(() => action(IDLE_STATE, formOf(fields)));
}

beforeEach(() => {
  signIn(null);
  browse();
});

describe("the Users screens' actions, posted without the page", () => {
  it("a signed-out browser is sent to the dashboard's sign-in and nothing changes", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const target = { env: env.environmentId, userId: user.id };
    expect(await post(banUserAction, target)).toMatchObject({ redirect: expect.stringContaining("/dashboard/sign-in") });
    expect(await post(createUserAction, { env: env.environmentId, email: uniqueEmail() })).toMatchObject({ redirect: expect.stringContaining("/dashboard/sign-in") });
    expect(await post(impersonateUserAction, target)).toMatchObject({ redirect: expect.stringContaining("/dashboard/sign-in") });
    expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("active");
    expect((await env.api.get("/users/count")).body.count).toBe(1);
  });

  it("a viewer is refused every write (ban, create, metadata, revoke, delete, impersonate) and nothing is written", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
    await signInAs("viewer");
    const target = { env: env.environmentId, userId: user.id };
    const refusals = [
      await post(banUserAction, target),
      await post(createUserAction, { env: env.environmentId, email: uniqueEmail() }),
      await post(updateUserMetadataAction, { ...target, bag: "publicMetadata", publicMetadata: '{"plan":"pro"}', original: "{}" }),
      await post(revokeAllSessionsAction, target),
      await post(deleteUserAction, { ...target, confirmation: email }),
      await post(impersonateUserAction, target),
    ];
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: "error", message: "Your role cannot see this." });
    const after = (await env.api.get(`/users/${user.id}`)).body;
    expect(after).toMatchObject({ status: "active", publicMetadata: {} });
    expect((await env.api.get("/users/count")).body.count).toBe(1);
  });

  it("an admin bans, creates, and deletes only after typing the user's primary address exactly", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(env.api, { email });
    await signInAs("admin");
    const target = { env: env.environmentId, userId: user.id };
    expect(await post(banUserAction, target)).toMatchObject({ status: "success", message: "User banned." });
    expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("banned");

    const created = await post(createUserAction, { env: env.environmentId, email: uniqueEmail(), firstName: "Ada" });
    expect(created).toMatchObject({ status: "success", continueUrl: expect.stringMatching(/^\/dashboard\/users\/[0-9a-f-]{36}\?env=/) });

    // A wrong confirmation (another user's address, as a replayed form would carry) deletes nothing.
    const wrong = await post(deleteUserAction, { ...target, confirmation: "someone-else@example.com" });
    expect(wrong).toMatchObject({ status: "error", fieldErrors: { confirmation: expect.any(String) } });
    expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("banned");
    expect(await post(deleteUserAction, { ...target, confirmation: email })).toMatchObject({ status: "success", message: "User deleted." });
    expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("deleted");
  });

  it("metadata over its limit saves nothing, and the dashboard refuses it as the Server API does", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    await env.api.patch(`/users/${user.id}/metadata`, { publicMetadata: { plan: "free" } });
    await signInAs("admin");
    const big = { plan: "free", notes: "x".repeat(600) };
    const size = Buffer.byteLength(JSON.stringify(big), "utf8");

    // The Server API, for the same bag: 400 metadata_too_large at publicMetadata.
    const api = await env.api.patch(`/users/${user.id}/metadata`, { publicMetadata: big });
    expectProblem(api, 400, "metadata_too_large");
    expect(api.body.detail).toBe(`publicMetadata is ${size} bytes; the limit is 512.`);

    const target = { env: env.environmentId, userId: user.id, bag: "publicMetadata", original: JSON.stringify({ plan: "free" }) };
    const refused = await post(updateUserMetadataAction, { ...target, publicMetadata: JSON.stringify(big) });
    expect(refused).toMatchObject({ status: "error", fieldErrors: { publicMetadata: `Nothing was saved: this is ${size} bytes; the limit is 512.` } });
    // Invalid JSON and a non-object are refused at the field too, before anything is sent.
    expect(await post(updateUserMetadataAction, { ...target, publicMetadata: "{plan: pro" })).toMatchObject({ fieldErrors: { publicMetadata: expect.stringContaining("not valid JSON") } });
    expect(await post(updateUserMetadataAction, { ...target, publicMetadata: "[1, 2]" })).toMatchObject({ fieldErrors: { publicMetadata: expect.stringContaining("JSON object") } });
    expect((await env.api.get(`/users/${user.id}`)).body.publicMetadata).toEqual({ plan: "free" });

    // Saving replaces the bag: a key gone from the text is removed.
    expect(await post(updateUserMetadataAction, { ...target, publicMetadata: '{"tier": 2}' })).toMatchObject({ status: "success" });
    expect((await env.api.get(`/users/${user.id}`)).body.publicMetadata).toEqual({ tier: 2 });
  });
});

describe("impersonation from the dashboard", () => {
  it("is refused in place for a banned user; an admin's token travels in a form to the landing, which redeems it once", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const banned = await createUser(env.api, { email: uniqueEmail() });
    await env.api.post(`/users/${banned.id}/ban`);
    const operator = await signInAs("admin");

    const refused = await post(impersonateUserAction, { env: env.environmentId, userId: banned.id });
    expect(refused).toMatchObject({ status: "error", message: "Banned users cannot be impersonated. Unban them first." });

    const ready = (await post(impersonateUserAction, { env: env.environmentId, userId: user.id, reason: "ticket 42" })) as FormState;
    expect(ready).toMatchObject({ status: "success" });
    const handoff = ready.handoff;
    if (!handoff) throw new Error("no handoff form");
    // The token is in the form's body, never in its URL.
    expect(handoff.action).not.toContain(handoff.fields.token ?? "-");
    expect(new URL(handoff.action).pathname).toBe("/impersonate");
    expect(handoff.fields.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // The new tab posts it from the dashboard's origin to the environment's landing.
    const landing = () => {
      signIn(null);
      browse(new URL(handoff.action).host, { origin: "http://localhost:3000" });
      return impersonationLanding(new Request(handoff.action, { method: "POST", body: formOf(handoff.fields) }));
    };
    const first = await landing();
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toMatch(/^\/account(\?|$)/);
    expect(pageBrowser.jar.get(SESSION_COOKIE)).toBeTruthy();
    const sessions = (await env.api.get(`/users/${user.id}/sessions`)).body.items;
    expect(sessions).toHaveLength(1);

    // Twice: refused, and no second session.
    const second = await landing();
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toContain("/impersonate/failed");
    expect(second.headers.get("location")).toContain("error=invalid_code");
    expect(pageBrowser.jar.has(SESSION_COOKIE)).toBe(false);
    expect((await env.api.get(`/users/${user.id}/sessions`)).body.items).toHaveLength(1);
    expect(operator.id).toBeTruthy();
  });

  it("the landing refuses a token posted from a foreign site's page", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const { token } = (await env.api.post("/impersonation-tokens", { userId: user.id, actorId: "support-1" })).body;
    const action = `http://localhost:3000/impersonate`;
    browse("localhost:3000", { origin: "https://evil.example" });
    const answer = await impersonationLanding(new Request(action, { method: "POST", body: formOf({ token, pk: env.publishableKey }) }));
    expect(answer.headers.get("location")).toContain("error=origin_not_allowed");
    expect((await env.api.get(`/users/${user.id}/sessions`)).body.items).toHaveLength(0);
  });
});
