import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sha256 } from "@/lib/crypto/tokens";
import { emailAddresses, oauthFlows, sessions, userIdentities, users } from "@/db/schema";
import { publicUrl } from "@/lib/config/runtime";
import { call, expectProblem } from "../helpers/api";
import { clientApi, emailCount, latestEmail } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { enrollTotp, signedInClient, totpCode } from "../helpers/mfa";
import {
  ALLOWED_APP,
  atProvider,
  cookieValue,
  follow,
  location,
  oauthEnvironments,
  startSignIn,
  webSignIn,
  type TestEnvironment,
} from "../helpers/oauth-flow";
import { startGitHubFake } from "../helpers/github-fake";
import type { LoopbackOidcProvider } from "../helpers/oidc-provider";

let idp: LoopbackOidcProvider;
let env: TestEnvironment;

beforeAll(async () => {
  const setup = await oauthEnvironments(1);
  idp = setup.idp;
  env = setup.environments[0] as TestEnvironment;
});

afterAll(async () => {
  await idp.close();
});

async function identitiesOf(subject: string) {
  return getDb()
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.environmentId, env.environmentId), eq(userIdentities.subject, subject)));
}

function errorOf(url: string): string | null {
  return new URL(url).searchParams.get("error");
}

describe("web sign-in against a real OpenID provider", () => {
  it("a new provider account with a verified address becomes a user with that address, signed in, identity recorded", async () => {
    const account = idp.addAccount({ email: uniqueEmail("new"), emailVerified: true, givenName: "Nora", familyName: "New" });
    const client = clientApi(env.publishableKey);
    const res = await webSignIn(client, idp, account.sub, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/home`)}`);
    expect(location(res)).toBe(`${ALLOWED_APP}/home`);
    expect(client.jar.get("__gh_session")).toBeTruthy();
    const me = await client.get("/users/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: account.email, firstName: "Nora", lastName: "New" });
    expect(me.body.emailVerifiedAt).not.toBeNull();
    const [identity] = await identitiesOf(account.sub);
    expect(identity).toMatchObject({ userId: me.body.id, providerId: "idp", email: account.email, emailVerified: true });
    const [session] = await getDb().select().from(sessions).where(eq(sessions.userId, me.body.id));
    expect(session?.amr).toEqual(["oauth"]);
  });

  it("a returning provider account signs in as the same user; no second user", async () => {
    const account = idp.addAccount({ email: uniqueEmail("back"), emailVerified: true });
    const first = clientApi(env.publishableKey);
    await webSignIn(first, idp, account.sub);
    const firstId = (await first.get("/users/me")).body.id;
    const second = clientApi(env.publishableKey);
    const res = await webSignIn(second, idp, account.sub);
    expect(res.status).toBe(303);
    expect((await second.get("/users/me")).body.id).toBe(firstId);
    const [identity] = await identitiesOf(account.sub);
    expect(identity?.lastSignInAt).not.toBeNull();
    expect(await getDb().select().from(users).where(eq(users.email, account.email ?? ""))).toHaveLength(1);
  });

  it("two first sign-ins of one provider account at once make one user; the other answers identifier_exists, never a 500", async () => {
    const account = idp.addAccount({ email: uniqueEmail("twice"), emailVerified: true });
    const pending = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = clientApi(env.publishableKey);
        return { client, callback: await atProvider(idp, await startSignIn(client), account.sub) };
      }),
    );
    const targets = (await Promise.all(pending.map(({ client, callback }) => follow(client, callback)))).map(location);
    expect(targets).toContain(`${env.origin}/account`);
    for (const target of targets) expect([`${env.origin}/account`, `${env.origin}/oauth-error?error=identifier_exists`]).toContain(target);
    expect(await getDb().select().from(users).where(eq(users.email, account.email ?? ""))).toHaveLength(1);
    expect(await identitiesOf(account.sub)).toHaveLength(1);
  });

  it("without redirect_url it ends on the hosted account page of the flow's host", async () => {
    const client = clientApi(env.publishableKey);
    const res = await webSignIn(client, idp, idp.addAccount({ email: uniqueEmail("plain"), emailVerified: true }).sub);
    expect(location(res)).toBe(`${env.origin}/account`);
  });

  it("an unverified provider address never reaches the account: the user is created without one", async () => {
    const account = idp.addAccount({ email: uniqueEmail("unv"), emailVerified: false });
    const client = clientApi(env.publishableKey);
    expect((await webSignIn(client, idp, account.sub)).status).toBe(303);
    const me = await client.get("/users/me");
    expect(me.body.email).toBeNull();
    const [identity] = await identitiesOf(account.sub);
    expect(identity).toMatchObject({ email: account.email, emailVerified: false });
    const claimed = await getDb().select().from(emailAddresses).where(eq(emailAddresses.email, account.email ?? ""));
    expect(claimed).toHaveLength(0);
  });

  it("a callback reached without X-API-Key or a frontend Host (PUBLIC_URL) finds its environment from the flow", async () => {
    const client = clientApi(env.publishableKey);
    const providerUrl = await startSignIn(client);
    const callback = await atProvider(idp, providerUrl, idp.addAccount({ email: uniqueEmail("nokey"), emailVerified: true }).sub);
    const res = await follow(client, callback, { "x-api-key": "" });
    expect(location(res)).toBe(`${env.origin}/account`);
    expect((await client.get("/users/me")).status).toBe(200);
  });

  it("the callback answers with Server-Timing: the provider exchange and its whole work; no exchange when the state is refused", async () => {
    const client = clientApi(env.publishableKey);
    const res = await webSignIn(client, idp, idp.addAccount({ email: uniqueEmail("timing"), emailVerified: true }).sub);
    expect(location(res)).toBe(`${env.origin}/account`);
    const timing = res.headers.get("server-timing") ?? "";
    const [, exchange, app] = /^oauth-exchange;dur=(\d+\.\d), app;dur=(\d+\.\d)$/.exec(timing) ?? [];
    expect(exchange, timing).toBeDefined();
    // The exchange is real round trips to the loopback provider, and part of the whole.
    expect(Number(exchange)).toBeGreaterThan(0);
    expect(Number(app)).toBeGreaterThanOrEqual(Number(exchange));

    const refused = await follow(clientApi(env.publishableKey), `${env.origin}/_svc/auth/oauth2/idp/callback?state=${"A".repeat(43)}&code=x`);
    expect(errorOf(location(refused))).toBe("oauth_state_invalid");
    expect(refused.headers.get("server-timing")).toMatch(/^app;dur=\d+\.\d$/);
  });
});

describe("GitHub (OAuth2 and its REST API, a loopback fake)", () => {
  it("a verified primary address makes the user; an unverified one matching an account is refused with account_exists", async () => {
    const github = await startGitHubFake();
    try {
      const added = await env.api.post("/oauth-providers", { id: "github", type: "github", clientId: github.clientId, clientSecret: github.clientSecret, issuer: github.baseUrl });
      expect(added.status, added.text).toBe(201);
      const client = clientApi(env.publishableKey);
      const providerUrl = await startSignIn(client, "", "github");
      const callback = await github.signIn(providerUrl, github.users.verified.login);
      expect(location(await follow(client, callback))).toBe(`${env.origin}/account`);
      const me = await client.get("/users/me");
      expect(me.body.email).toBe(github.users.verified.emails.find((entry) => entry.primary)?.email.toLowerCase());
      expect((await identitiesOf(String(github.users.verified.id)))[0]).toMatchObject({ providerId: "github", userId: me.body.id });
      // GitHub reports no auth_time: it cannot confirm a fresh sign-in for reverification (review finding).
      expectProblem(await client.get("/auth/oauth2/github/reverify"), 403, "forbidden");

      const email = (github.users.unverified.emails[0]?.email ?? "").toLowerCase();
      await createUser(env.api, { email, password: STRONG_PASSWORD });
      const other = clientApi(env.publishableKey);
      const back = await github.signIn(await startSignIn(other, "", "github"), github.users.unverified.login);
      expect(location(await follow(other, back))).toBe(`${env.origin}/oauth-error?error=account_exists`);
      expect(other.jar.get("__gh_session")).toBeUndefined();
    } finally {
      await github.close();
    }
  });
});

describe("no takeover: linking to an existing account", () => {
  it("links automatically when the provider and the account both have the address verified, and tells the owner", async () => {
    const email = uniqueEmail("owner");
    const owner = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const account = idp.addAccount({ email, emailVerified: true });
    const client = clientApi(env.publishableKey);
    expect((await webSignIn(client, idp, account.sub)).status).toBe(303);
    expect((await client.get("/users/me")).body.id).toBe(owner.id);
    expect((await identitiesOf(account.sub))[0]?.userId).toBe(owner.id);
    expect((await latestEmail(email, "account_connected")).locale).toBe("en");
  });

  it("refuses when the provider does not assert the address verified (the takeover attempt): account_exists, no link, no session", async () => {
    const email = uniqueEmail("victim");
    const victim = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const attacker = idp.addAccount({ email, emailVerified: false });
    const client = clientApi(env.publishableKey);
    const res = await webSignIn(client, idp, attacker.sub, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/in`)}`);
    const target = location(res);
    expect(target.startsWith(`${ALLOWED_APP}/in?`)).toBe(true);
    expect(errorOf(target)).toBe("account_exists");
    expect(client.jar.get("__gh_session")).toBeUndefined();
    expect(await identitiesOf(attacker.sub)).toHaveLength(0);
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, victim.id))).toHaveLength(0);
  });

  it("refuses when the account's own address is not verified, even if the provider's is", async () => {
    const email = uniqueEmail("pending");
    const holder = await createUser(env.api, { email, password: STRONG_PASSWORD });
    await getDb().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, holder.id));
    await getDb().update(emailAddresses).set({ verifiedAt: null }).where(eq(emailAddresses.userId, holder.id));
    const account = idp.addAccount({ email, emailVerified: true });
    const client = clientApi(env.publishableKey);
    const target = location(await webSignIn(client, idp, account.sub));
    expect(target).toBe(`${env.origin}/oauth-error?error=account_exists`);
    expect(await identitiesOf(account.sub)).toHaveLength(0);
  });

  it("refuses a banned user, by a known identity and by auto-link alike", async () => {
    const account = idp.addAccount({ email: uniqueEmail("ban"), emailVerified: true });
    const first = clientApi(env.publishableKey);
    await webSignIn(first, idp, account.sub);
    const userId = (await first.get("/users/me")).body.id;
    expect((await env.api.post(`/users/${userId}/ban`)).status).toBe(200);
    const client = clientApi(env.publishableKey);
    expect(errorOf(location(await webSignIn(client, idp, account.sub)))).toBe("user_banned");
    expect(client.jar.get("__gh_session")).toBeUndefined();

    const email = uniqueEmail("banlink");
    const banned = await createUser(env.api, { email, password: STRONG_PASSWORD });
    await env.api.post(`/users/${banned.id}/ban`);
    const linker = idp.addAccount({ email, emailVerified: true });
    expect(errorOf(location(await webSignIn(clientApi(env.publishableKey), idp, linker.sub)))).toBe("user_banned");
    expect(await identitiesOf(linker.sub)).toHaveLength(0);
  });
});

// Regression (review finding 3): provider addresses were only lower-cased. A provider
// that verified the KELVIN SIGN's mailbox was linked to `ken@…`'s account, an IDN
// address missed the account holding its A-label form (two accounts, one mailbox),
// and `<a,b>@x.com` was stored as a verified primary address.
describe("provider addresses are normalized like ours", () => {
  it("an address that only folds into an account's (KELVIN SIGN for k) is not linked to it: account_exists, no session", async () => {
    const email = uniqueEmail("ken");
    const owner = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const kelvin = idp.addAccount({ email: `\u212A${email.slice(1)}`, emailVerified: true });
    const client = clientApi(env.publishableKey);
    expect(errorOf(location(await webSignIn(client, idp, kelvin.sub)))).toBe("account_exists");
    expect(client.jar.get("__gh_session")).toBeUndefined();
    expect(await identitiesOf(kelvin.sub)).toHaveLength(0);
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, owner.id))).toHaveLength(0);
  });

  it("an IDN address signs in to the account that holds its A-label form: linked, no second account", async () => {
    const local = uniqueEmail("ann").split("@")[0] ?? "";
    const owner = await createUser(env.api, { email: `${local}@bücher.de`, password: STRONG_PASSWORD });
    expect(owner.email).toBe(`${local}@xn--bcher-kva.de`);
    const account = idp.addAccount({ email: `${local}@bücher.de`, emailVerified: true });
    const client = clientApi(env.publishableKey);
    expect(location(await webSignIn(client, idp, account.sub))).toBe(`${env.origin}/account`);
    expect((await client.get("/users/me")).body.id).toBe(owner.id);
    expect((await identitiesOf(account.sub))[0]).toMatchObject({ userId: owner.id, email: `${local}@xn--bcher-kva.de`, emailVerified: true });
    const holders = await getDb().select().from(emailAddresses).where(eq(emailAddresses.email, `${local}@xn--bcher-kva.de`));
    expect(holders.map((row) => row.userId)).toEqual([owner.id]);
  });

  it("an address that is not a plain mailbox is not stored: the user is created without an address, as for a provider without one", async () => {
    const tag = uniqueEmail("list").split("@")[0] ?? "";
    const account = idp.addAccount({ email: `<${tag},victim>@example.com`, emailVerified: true });
    const client = clientApi(env.publishableKey);
    expect(location(await webSignIn(client, idp, account.sub))).toBe(`${env.origin}/account`);
    const me = await client.get("/users/me");
    expect(me.body).toMatchObject({ email: null, emailVerifiedAt: null });
    expect((await identitiesOf(account.sub))[0]).toMatchObject({ userId: me.body.id, email: null, emailVerified: false });
    expect(await getDb().select().from(emailAddresses).where(eq(emailAddresses.userId, me.body.id))).toHaveLength(0);
  });
});

describe("MFA still applies", () => {
  it("an MFA user's OAuth sign-in opens no session: the hosted second-factor page gets the mfaToken (gh_mfa), and the code finishes it", async () => {
    const email = uniqueEmail("mfa");
    const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client: enrolled } = await signedInClient(env.publishableKey, email);
    const { secret } = await enrollTotp(enrolled, user.id);
    const account = idp.addAccount({ email, emailVerified: true });

    const client = clientApi(env.publishableKey);
    const target = location(await webSignIn(client, idp, account.sub, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/x`)}`));
    expect(target).toBe(`${env.origin}/second-factor?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/x`)}`);
    expect(client.jar.get("__gh_session")).toBeUndefined();
    const flow = JSON.parse(cookieValue(client, "gh_mfa") ?? "{}");
    expect(flow).toMatchObject({ environmentId: env.environmentId, kind: "second_factor", factors: ["totp", "recovery_code"] });
    expect((await client.get("/users/me")).status).toBe(401);

    const verified = await client.post("/auth/mfa/verify", { mfaToken: flow.token, code: totpCode(secret) });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.user.id).toBe(user.id);
  });
});

describe("MFA required by the environment", () => {
  it("a new OAuth user is sent to the hosted enrollment with its token in gh_mfa, no session yet", async () => {
    expect((await env.api.patch("/environment", { mfa: { required: true } })).status).toBe(200);
    try {
      const client = clientApi(env.publishableKey);
      const target = location(await webSignIn(client, idp, idp.addAccount({ email: uniqueEmail("enroll"), emailVerified: true }).sub));
      expect(target).toBe(`${env.origin}/mfa-enrollment`);
      expect(client.jar.get("__gh_session")).toBeUndefined();
      expect(JSON.parse(cookieValue(client, "gh_mfa") ?? "{}")).toMatchObject({ environmentId: env.environmentId, kind: "enrollment" });
    } finally {
      await env.api.patch("/environment", { mfa: { required: false } });
    }
  });
});

describe("state: single use, bound to the browser and the provider", () => {
  async function pendingCallback() {
    const client = clientApi(env.publishableKey);
    const providerUrl = await startSignIn(client);
    const account = idp.addAccount({ email: uniqueEmail("state"), emailVerified: true });
    return { client, callback: await atProvider(idp, providerUrl, account.sub), account };
  }

  it("the state is stored only as a hash, with a sealed verifier, and lives 10 minutes", async () => {
    const client = clientApi(env.publishableKey);
    const state = new URL(await startSignIn(client)).searchParams.get("state") ?? "";
    const rows = await getDb().select().from(oauthFlows).where(eq(oauthFlows.environmentId, env.environmentId));
    expect(JSON.stringify(rows)).not.toContain(state);
    const row = rows.at(-1);
    expect(row?.codeVerifierSealed).not.toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(lifetime).toBeGreaterThan(9.9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const cookie = (await client.get("/auth/oauth2/idp/authorize")).headers.getSetCookie().find((line) => line.startsWith("gh_oauth="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/_svc\/auth\/oauth2/);
  });

  it("missing → refused on the hosted error page, no session", async () => {
    const { client, callback } = await pendingCallback();
    callback.searchParams.delete("state");
    expect(location(await follow(client, callback))).toBe(`${env.origin}/oauth-error?error=oauth_state_invalid`);
    expect(client.jar.get("__gh_session")).toBeUndefined();
  });

  it("mismatched → refused", async () => {
    const { client, callback } = await pendingCallback();
    callback.searchParams.set("state", "A".repeat(43));
    expect(errorOf(location(await follow(client, callback)))).toBe("oauth_state_invalid");
    expect(client.jar.get("__gh_session")).toBeUndefined();
  });

  it("replayed → refused the second time", async () => {
    const { client, callback } = await pendingCallback();
    expect(location(await follow(client, callback))).toBe(`${env.origin}/account`);
    const again = clientApi(env.publishableKey);
    again.jar.set("gh_oauth", client.jar.get("gh_oauth") ?? "");
    expect(errorOf(location(await follow(again, callback)))).toBe("oauth_state_invalid");
    expect(again.jar.get("__gh_session")).toBeUndefined();
  });

  it("delivered to another provider's callback → refused, and the flow still works for its own provider", async () => {
    const { client, callback } = await pendingCallback();
    const other = new URL(callback.toString().replace("/oauth2/idp/", "/oauth2/other/"));
    expect(errorOf(location(await follow(client, other)))).toBe("oauth_state_invalid");
    expect(client.jar.get("__gh_session")).toBeUndefined();
    expect(location(await follow(client, callback))).toBe(`${env.origin}/account`);
  });

  it("carried to another browser (no gh_oauth cookie, or another one) → refused (login CSRF)", async () => {
    const { client, callback } = await pendingCallback();
    const victim = clientApi(env.publishableKey);
    expect(errorOf(location(await follow(victim, callback)))).toBe("oauth_state_invalid");
    await startSignIn(victim);
    expect(victim.jar.get("gh_oauth")).not.toBe(client.jar.get("gh_oauth"));
    expect(errorOf(location(await follow(victim, callback)))).toBe("oauth_state_invalid");
    expect(victim.jar.get("__gh_session")).toBeUndefined();
  });

  it("two gh_oauth cookies (one planted by a sibling subdomain or a narrower path) bind nothing", async () => {
    const { client, callback } = await pendingCallback();
    const own = client.jar.get("gh_oauth") ?? "";
    const res = await follow(clientApi(env.publishableKey), callback, { cookie: `gh_oauth=${own}; gh_oauth=${"A".repeat(43)}` });
    expect(errorOf(location(res))).toBe("oauth_state_invalid");
    expect(location(await follow(client, callback))).toBe(`${env.origin}/account`);
  });

  it("expired → refused", async () => {
    const { client, callback } = await pendingCallback();
    await getDb().update(oauthFlows).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthFlows.environmentId, env.environmentId));
    expect(errorOf(location(await follow(client, callback)))).toBe("oauth_state_invalid");
  });

  it("a presented gh_oauth with no live flow behind it (planted, or left over) is not adopted: a fresh one is issued", async () => {
    const client = clientApi(env.publishableKey);
    const planted = "P".repeat(43);
    client.jar.set("gh_oauth", planted);
    const providerUrl = await startSignIn(client);
    const issued = client.jar.get("gh_oauth");
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);
    const [flow] = await getDb().select().from(oauthFlows).where(eq(oauthFlows.browserHash, sha256(planted)));
    expect(flow).toBeUndefined();
    expect(location(await follow(client, await atProvider(idp, providerUrl, idp.addAccount({ email: uniqueEmail("fresh"), emailVerified: true }).sub)))).toBe(
      `${env.origin}/account`,
    );

    // Once its flow is done, the browser's own token is not kept either.
    await startSignIn(client);
    expect(client.jar.get("gh_oauth")).not.toBe(issued);
  });

  it("two tabs of one browser share the cookie and both complete", async () => {
    const client = clientApi(env.publishableKey);
    const firstUrl = await startSignIn(client);
    const secondUrl = await startSignIn(client);
    const a = idp.addAccount({ email: uniqueEmail("tab"), emailVerified: true });
    const firstCallback = await atProvider(idp, firstUrl, a.sub);
    const secondCallback = await atProvider(idp, secondUrl, a.sub);
    expect(location(await follow(client, secondCallback))).toBe(`${env.origin}/account`);
    expect(location(await follow(client, firstCallback))).toBe(`${env.origin}/account`);
  });
});

describe("on https the browser binding is a __Host- cookie", () => {
  it("__Host-gh_oauth (Secure, Path=/, no Domain); a plain gh_oauth, which a sibling subdomain could plant, binds nothing there", async () => {
    const saved = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = "https://localhost:3000";
    try {
      const client = clientApi(env.publishableKey);
      const started = await client.get("/auth/oauth2/idp/authorize");
      const lines = started.headers.getSetCookie();
      const cookie = lines.find((line) => line.startsWith("__Host-gh_oauth="));
      expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Domain=/i);
      expect(lines.some((line) => line.startsWith("gh_oauth="))).toBe(false);
      const token = client.jar.get("__Host-gh_oauth") ?? "";
      const state = new URL(location(started)).searchParams.get("state") ?? "";
      const callback = `/auth/oauth2/idp/callback?state=${encodeURIComponent(state)}&code=forged`;

      const planted = await clientApi(env.publishableKey).get(callback, { cookie: `gh_oauth=${token}` });
      expect(errorOf(location(planted))).toBe("oauth_state_invalid");
      // The __Host- cookie does find the flow (which then fails on the forged code, at the provider).
      expect(errorOf(location(await client.get(callback)))).toBe("oauth_failed");
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = saved;
    }
  });
});

describe("response_mode=form_post (Apple posts its answer)", () => {
  it("the posted answer is turned into a GET of the callback (where the SameSite=Lax browser cookie is sent) and signs in", async () => {
    const client = clientApi(env.publishableKey);
    const providerUrl = await startSignIn(client);
    const callback = await atProvider(idp, providerUrl, idp.addAccount({ email: uniqueEmail("post"), emailVerified: true }).sub);
    const form = new URLSearchParams(callback.searchParams);
    form.set("id_token", "never.in.a.url");
    // Cross-site: the provider's Origin, and no cookies (SameSite=Lax keeps gh_oauth off a cross-site POST).
    const posted = await call("POST", callback.pathname, {
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: idp.issuer, "x-api-key": env.publishableKey },
    });
    const next = location(posted);
    expect(next.startsWith("/_svc/auth/oauth2/idp/callback?")).toBe(true);
    expect(next).not.toContain("never.in.a.url");
    expect(posted.headers.getSetCookie()).toHaveLength(0);
    expect(location(await follow(client, new URL(next, env.origin)))).toBe(`${env.origin}/account`);
    expect((await client.get("/users/me")).status).toBe(200);
  });
});

describe("errors from the provider and its id_token", () => {
  it("a refusal at the provider ends at redirect_url with error=access_denied", async () => {
    const client = clientApi(env.publishableKey);
    const providerUrl = await startSignIn(client, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/cb`)}`);
    const callback = await atProvider(idp, providerUrl, idp.accounts.verified.sub, { deny: true });
    expect(location(await follow(client, callback))).toBe(`${ALLOWED_APP}/cb?error=access_denied`);
  });

  it("an id_token with a wrong nonce is refused: error=oauth_failed, no user", async () => {
    const account = idp.addAccount({ email: uniqueEmail("nonce"), emailVerified: true });
    idp.tamperIdTokens("nonce");
    try {
      const target = location(await webSignIn(clientApi(env.publishableKey), idp, account.sub));
      expect(target).toBe(`${env.origin}/oauth-error?error=oauth_failed`);
    } finally {
      idp.tamperIdTokens(null);
    }
    expect(await identitiesOf(account.sub)).toHaveLength(0);
  });
});

describe("redirect_url outside the allowed origins is never followed", () => {
  for (const hostile of ["https://evil.example/steal", "//evil.example", "javascript:alert(1)", "https://app.example.com@evil.example/", "myotherapp://cb"]) {
    it(`authorize refuses ${hostile} with 400 and no redirect, and starts no flow`, async () => {
      const before = await getDb().select().from(oauthFlows).where(eq(oauthFlows.environmentId, env.environmentId));
      const res = await clientApi(env.publishableKey).get(`/auth/oauth2/idp/authorize?redirect_url=${encodeURIComponent(hostile)}`);
      expectProblem(res, 400, "invalid_request");
      expect(res.headers.get("location")).toBeNull();
      const after = await getDb().select().from(oauthFlows).where(eq(oauthFlows.environmentId, env.environmentId));
      expect(after).toHaveLength(before.length);
    });
  }
});

describe("regression (finding 6): a redirect_url on PUBLIC_URL must name this environment", () => {
  const publicOrigin = () => new URL(publicUrl()).origin;
  /** The flow on the environment's frontend host, or on PUBLIC_URL (named by X-API-Key there, as by pk). */
  const onFrontendHost = () => ({ host: new URL(env.origin).host });
  const onPublicUrl = () => ({ host: new URL(publicUrl()).host });

  it("another environment's pk (on PUBLIC_URL, on the frontend host, or in a path) is 400, never followed", async () => {
    const other = await newEnvironment();
    const client = clientApi(env.publishableKey);
    for (const target of [`${publicOrigin()}/sign-in?pk=${other.publishableKey}`, `${env.origin}/sign-in?pk=${other.publishableKey}`, `/sign-in?pk=${other.publishableKey}`]) {
      for (const headers of [onPublicUrl(), onFrontendHost()]) {
        const res = await client.get(`/auth/oauth2/idp/authorize?redirect_url=${encodeURIComponent(target)}`, headers);
        expectProblem(res, 400, "invalid_request");
        expect(res.headers.get("location"), target).toBeNull();
      }
    }
  });

  it("its own pk is accepted; no pk only when the flow itself runs on PUBLIC_URL", async () => {
    const client = clientApi(env.publishableKey);
    const own = encodeURIComponent(`${publicOrigin()}/sign-in?pk=${env.publishableKey}`);
    for (const headers of [onPublicUrl(), onFrontendHost()]) {
      expect((await client.get(`/auth/oauth2/idp/authorize?redirect_url=${own}`, headers)).status).toBe(303);
    }
    const bare = encodeURIComponent(`${publicOrigin()}/account`);
    expect((await client.get(`/auth/oauth2/idp/authorize?redirect_url=${bare}`, onPublicUrl())).status).toBe(303);
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?redirect_url=${bare}`, onFrontendHost()), 400, "invalid_request");
  });
});

describe("authorize: hostile and wrong input", () => {
  it("an unknown or disabled provider is 404; a malformed id 400", async () => {
    const client = clientApi(env.publishableKey);
    expectProblem(await client.get("/auth/oauth2/nope/authorize"), 404, "resource_not_found");
    expectProblem(await client.get("/auth/oauth2/NOT_AN_ID/authorize"), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?redirect_url=${"a".repeat(3000)}`), 400, "invalid_request");
  });

  it("without an environment it is 401 environment_not_found; with ?pk= (a browser on PUBLIC_URL) it works", async () => {
    const bare = await call("GET", "/_svc/auth/oauth2/idp/authorize");
    expectProblem(bare, 401, "environment_not_found");
    const withPk = await call("GET", `/_svc/auth/oauth2/idp/authorize?pk=${env.publishableKey}`);
    expect(withPk.status).toBe(303);
    expect(withPk.headers.get("location")?.startsWith(idp.issuer)).toBe(true);
  });

  it("other methods answer 405", async () => {
    expectProblem(await clientApi(env.publishableKey).post("/auth/oauth2/idp/authorize", {}), 405, "method_not_allowed");
    expectProblem(await clientApi(env.publishableKey).patch("/auth/oauth2/idp/callback", {}), 405, "method_not_allowed");
  });

  it("the callback never answers 500 to garbage", async () => {
    const client = clientApi(env.publishableKey);
    for (const query of ["?state=%00%01", "?code=x", `?state=${"x".repeat(5000)}`, "?error=server_error&state=abc", "?state=a&state=b"]) {
      const res = await client.get(`/auth/oauth2/idp/callback${query}`);
      expect([303, 400]).toContain(res.status);
    }
  });

  it("no account-connected email for a brand-new OAuth user (nothing was connected to an existing account)", async () => {
    const account = idp.addAccount({ email: uniqueEmail("quiet"), emailVerified: true });
    await webSignIn(clientApi(env.publishableKey), idp, account.sub);
    expect(await emailCount(account.email ?? "")).toBe(0);
  });

  it("authorize is rate-limited per IP (rateLimits.signIn): 429 with Retry-After", async () => {
    const fresh = await newEnvironment();
    const client = clientApi(fresh.publishableKey, { headers: { "x-forwarded-for": "203.0.113.9" } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await client.get("/auth/oauth2/idp/authorize")).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    const limited = await client.get("/auth/oauth2/idp/authorize");
    expectProblem(limited, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  it("a redirect_url the environment stopped allowing after the flow began is not followed on failure either", async () => {
    const client = clientApi(env.publishableKey);
    const providerUrl = await startSignIn(client, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/cb`)}`);
    const callback = await atProvider(idp, providerUrl, idp.accounts.verified.sub, { deny: true });
    expect((await env.api.put("/allowed-origins", { origins: [] })).status).toBe(200);
    try {
      expect(location(await follow(client, callback))).toBe(`${env.origin}/oauth-error?error=access_denied`);
    } finally {
      await env.api.put("/allowed-origins", { origins: [ALLOWED_APP, "myapp://callback"] });
    }
  });

  it("the OpenAPI document has the OAuth flow's paths", async () => {
    const doc = await call("GET", "/api/openapi.json");
    for (const path of ["/_svc/auth/oauth2/{provider}/authorize", "/_svc/auth/oauth2/{provider}/callback", "/_svc/auth/oauth2/{provider}/link", "/_svc/auth/oauth2/link/complete", "/_svc/auth/signup/continue"]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
    expect(doc.body.paths["/_svc/auth/oauth2/{provider}/authorize"].get.responses["303"]).toBeTruthy();
    expect(Object.keys(doc.body.paths["/_svc/auth/signup/continue"])).toEqual(expect.arrayContaining(["get", "post"]));
  });
});
