import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, oauthProviders, oneTimeCodes, userIdentities, users } from "@/db/schema";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi, type ClientApi } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { signedInClient } from "../helpers/mfa";
import { atProvider, follow, location, NATIVE_APP, oauthEnvironments, startSignIn, type TestEnvironment } from "../helpers/oauth-flow";
import type { LoopbackOidcProvider, TestAccount } from "../helpers/oidc-provider";

// Regression (review finding 4): removing a connected account (by its user, by an
// operator, or with its provider) left the sessions it had opened alive, so a
// compromised provider account stayed signed in after support "cut it off".

// RFC 7636 Appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const NATIVE_QUERY = `?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=S256&redirect_url=${encodeURIComponent(NATIVE_APP)}`;

let idp: LoopbackOidcProvider;
let env: TestEnvironment;
let doomed: TestEnvironment;

beforeAll(async () => {
  const setup = await oauthEnvironments(2);
  idp = setup.idp;
  [env, doomed] = setup.environments as [TestEnvironment, TestEnvironment];
});

afterAll(async () => {
  await idp.close();
});

/** A user with a password and a verified address, and a provider account with that address (so it links on first sign-in). */
async function userWithProviderAccount(environment: TestEnvironment, tag: string) {
  const email = uniqueEmail(tag);
  const user = await createUser(environment.api, { email, password: STRONG_PASSWORD });
  return { user, email, account: idp.addAccount({ email, emailVerified: true }) };
}

/** A browser signed in through the provider `provider` as `account`. */
async function providerSession(environment: TestEnvironment, account: TestAccount, provider = "idp"): Promise<ClientApi> {
  const client = clientApi(environment.publishableKey);
  const callback = await atProvider(idp, await startSignIn(client, "", provider), account.sub);
  expect(new URL(location(await follow(client, callback))).searchParams.get("error")).toBeNull();
  return client;
}

async function identityId(environment: TestEnvironment, userId: string, provider = "idp"): Promise<string> {
  const [row] = await getDb()
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(and(eq(userIdentities.environmentId, environment.environmentId), eq(userIdentities.userId, userId), eq(userIdentities.providerId, provider)));
  if (!row) throw new Error("no identity");
  return row.id;
}

/** Whether the browser's session still works: a token refresh (POST /auth/token). */
async function refreshes(client: ClientApi): Promise<boolean> {
  const res = await client.post("/auth/token");
  if (res.status === 200) return true;
  expectProblem(res, 401, "unauthorized");
  return false;
}

async function revocationReasons(userId: string): Promise<unknown[]> {
  const rows = await getDb().select().from(events).where(and(eq(events.subjectId, userId), eq(events.type, "session.revoked")));
  return rows.map((row) => (row.data as { reason?: unknown }).reason);
}

describe("an operator removes a connected account (DELETE /api/server/v1/users/{userId}/identities/{identityId})", () => {
  it("the sessions the provider opened are revoked (their refresh fails), audited; a password session survives", async () => {
    const { user, email, account } = await userWithProviderAccount(env, "op");
    const viaProvider = await providerSession(env, account);
    const { client: viaPassword } = await signedInClient(env.publishableKey, email);
    expect(await refreshes(viaProvider)).toBe(true);

    const res = await env.api.delete(`/users/${user.id}/identities/${await identityId(env, user.id)}`);
    expect(res.status, res.text).toBe(200);
    expect(await refreshes(viaProvider)).toBe(false);
    expect(await refreshes(viaPassword)).toBe(true);
    expect(await revocationReasons(user.id)).toEqual(["identity_removed"]);
  });

  it("a native app's ticket from the provider, not yet redeemed, opens nothing afterwards", async () => {
    const { user, account } = await userWithProviderAccount(env, "native");
    const browser = clientApi(env.publishableKey);
    const callback = await atProvider(idp, await startSignIn(browser, NATIVE_QUERY), account.sub);
    const ticket = new URL(location(await follow(browser, callback))).searchParams.get("ticket") ?? "";
    expect(ticket).not.toBe("");

    expect((await env.api.delete(`/users/${user.id}/identities/${await identityId(env, user.id)}`)).status).toBe(200);
    expectProblem(await clientApi(env.publishableKey).post("/auth/session/establish", { ticket, codeVerifier: VERIFIER }), 400, "invalid_code");
  });
});

describe("a user disconnects their own account (DELETE /_svc/users/me/identities/{identityId})", () => {
  it("keeps the session that asked, even one the provider opened; the provider's other sessions end, password sessions stay", async () => {
    const { user, email, account } = await userWithProviderAccount(env, "self");
    const caller = await providerSession(env, account);
    const otherDevice = await providerSession(env, account);
    const { client: viaPassword } = await signedInClient(env.publishableKey, email);

    const res = await caller.delete(`/users/me/identities/${await identityId(env, user.id)}`);
    expect(res.status, res.text).toBe(200);
    expect(await refreshes(caller)).toBe(true);
    expect(await refreshes(otherDevice)).toBe(false);
    expect(await refreshes(viaPassword)).toBe(true);
    expect(await revocationReasons(user.id)).toEqual(["identity_removed"]);
  });
});

describe("an operator deletes a provider (DELETE /api/server/v1/oauth-providers/{id})", () => {
  it("revokes the provider-opened sessions of its users; their password sessions and another provider's users stay", async () => {
    const linked = await userWithProviderAccount(doomed, "gone");
    const viaDoomed = await providerSession(doomed, linked.account, "other");
    const { client: viaPassword } = await signedInClient(doomed.publishableKey, linked.email);
    const bystander = await userWithProviderAccount(doomed, "stays");
    const viaKept = await providerSession(doomed, bystander.account, "idp");

    expect((await doomed.api.delete("/oauth-providers/other")).status).toBe(204);
    expect(await refreshes(viaDoomed)).toBe(false);
    expect(await refreshes(viaPassword)).toBe(true);
    expect(await refreshes(viaKept)).toBe(true);
    expect(await revocationReasons(linked.user.id)).toEqual(["identity_removed"]);
    expect(await revocationReasons(bystander.user.id)).toEqual([]);
  });
});

/* Holding the provider's row on a second connection needs a server: PGlite has one connection. */
describe.skipIf(!process.env.DATABASE_URL)("a provider deleted while a sign-in through it is under way", () => {
  it("the sign-in waits for the deletion and then fails: no user, no identity, no session under the deleted provider", async () => {
    const setup = await oauthEnvironments(1);
    const [target] = setup.environments as [TestEnvironment];
    try {
      const email = uniqueEmail("stalled");
      const account = setup.idp.addAccount({ email, emailVerified: true });
      const client = clientApi(target.publishableKey);
      const callback = await atProvider(setup.idp, await startSignIn(client, "", "other"), account.sub);
      let answered: Promise<ApiResponse> | undefined;
      // The deletion in progress: it holds the provider's row while the callback exchanges its code.
      await getDb().transaction(async (tx) => {
        const provider = and(eq(oauthProviders.environmentId, target.environmentId), eq(oauthProviders.id, "other"));
        await tx.select({ id: oauthProviders.id }).from(oauthProviders).where(provider).for("update");
        answered = follow(client, callback);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await tx.delete(oauthProviders).where(provider);
      });
      const res = await answered!;
      expect(new URL(location(res)).searchParams.get("error")).toBe("oauth_failed");
      const identities = await getDb().select().from(userIdentities).where(eq(userIdentities.environmentId, target.environmentId));
      expect(identities).toEqual([]);
      const created = await getDb().select().from(users).where(and(eq(users.environmentId, target.environmentId), eq(users.email, email)));
      expect(created).toEqual([]);
    } finally {
      await setup.idp.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("lock order against a redemption in progress", () => {
  it("an operator's removal waits for a ticket redemption holding the ticket, then the user, instead of deadlocking into a 500", async () => {
    const { user, account } = await userWithProviderAccount(env, "racing");
    const browser = clientApi(env.publishableKey);
    const callback = await atProvider(idp, await startSignIn(browser, NATIVE_QUERY), account.sub);
    expect(new URL(location(await follow(browser, callback))).searchParams.get("ticket")).toBeTruthy();
    const identity = await identityId(env, user.id);
    let removal: Promise<ApiResponse> | undefined;
    // A redemption in progress takes the ticket's row, then the user's (lib/tickets/redeem-ticket.ts).
    await getDb().transaction(async (tx) => {
      const pending = and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "session_ticket"), isNull(oneTimeCodes.consumedAt));
      expect(await tx.select({ id: oneTimeCodes.id }).from(oneTimeCodes).where(pending).for("update")).toHaveLength(1);
      removal = env.api.delete(`/users/${user.id}/identities/${identity}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
    });
    expect((await removal!).status).toBe(200);
  });
});
