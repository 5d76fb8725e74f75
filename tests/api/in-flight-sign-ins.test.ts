import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, sessions, users } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { revokeAllUserSessions } from "@/lib/sessions/revoke-sessions";
import { s256Challenge } from "@/lib/tickets/pkce";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi, emailedResetCode } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { issueTicketFor } from "../helpers/tickets";
import { awayFromStepEdge, mfaEnvironment, mfaToken, mfaUser, signedInClient, totpCode } from "../helpers/mfa";

// A sign-in still on its way to a session when all the user's sessions are revoked
// (a password change, "sign out everywhere", an operator's revoke-all) opens none
// after it: before users.sign_ins_revoked_at, a native app's ticket kept working
// for its 60 s and a half-done MFA sign-in with the old password for 5 minutes.

const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

function nativeTicket(environmentId: string, user: { id: string }) {
  return issueTicketFor(environmentId, user.id, { methods: ["oauth"], codeChallenge: s256Challenge(VERIFIER) });
}

async function sessionCount(userId: string) {
  return (await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId))).length;
}

async function setup() {
  const env = await mfaEnvironment();
  const email = uniqueEmail("inflight");
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
  const { client } = await signedInClient(env.publishableKey, email);
  return { ...env, user: { id: user.id as string, email }, client };
}

function redeem(publishableKey: string, ticket: string) {
  return clientApi(publishableKey).post("/auth/session/establish", { ticket, codeVerifier: VERIFIER });
}

describe("a native ticket issued before all the user's sessions are revoked", () => {
  it("is refused after the user changes the password elsewhere; one issued after works", async () => {
    const { publishableKey, environmentId, user, client } = await setup();
    const before = await nativeTicket(environmentId, user);
    const changed = await client.post("/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "a brand new passphrase" });
    expect(changed.status, changed.text).toBe(200);
    const sessionsBefore = await sessionCount(user.id);
    expectProblem(await redeem(publishableKey, before), 400, "invalid_code");
    expect(await sessionCount(user.id)).toBe(sessionsBefore);
    const after = await nativeTicket(environmentId, user);
    expect((await redeem(publishableKey, after)).status).toBe(200);
  });

  it("is refused after the user signs out everywhere else, and after the operator revokes every session", async () => {
    const { publishableKey, environmentId, api, user, client } = await setup();
    const first = await nativeTicket(environmentId, user);
    expect((await client.post("/users/me/sessions/revoke-others")).status).toBe(200);
    expectProblem(await redeem(publishableKey, first), 400, "invalid_code");
    const second = await nativeTicket(environmentId, user);
    expect((await api.delete(`/users/${user.id}/sessions`)).status).toBe(200);
    expectProblem(await redeem(publishableKey, second), 400, "invalid_code");
  });
});

describe("a second-factor challenge begun before all the user's sessions are revoked", () => {
  it("is refused with the right code after a password change; a new sign-in with the new password goes through", async () => {
    const { publishableKey, api } = await mfaEnvironment();
    const owner = await mfaUser(publishableKey, api);
    // Someone with the old password, stopped at the second factor.
    const stale = await mfaToken(publishableKey, owner.email);
    const changed = await owner.client.post("/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "a brand new passphrase" });
    expect(changed.status, changed.text).toBe(200);
    await awayFromStepEdge();
    const guest = clientApi(publishableKey);
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: stale, code: totpCode(owner.secret) }), 400, "invalid_code");
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: stale, code: owner.recoveryCodes[0] }), 400, "invalid_code");
    // The refused tries spent neither the code's time step nor the recovery code.
    const fresh = await guest.post("/auth/login", { email: owner.email, password: "a brand new passphrase" });
    expect(fresh.body.status).toBe("needs_second_factor");
    const verified = await guest.post("/auth/mfa/verify", { mfaToken: fresh.body.mfaToken, code: owner.recoveryCodes[0] });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.session.status).toBe("ACTIVE");
  });
});

describe("a password-reset code sent before all the user's sessions are revoked, or to an address no longer the account's", () => {
  it("resets nothing and signs nobody in after the owner changes the password or signs out everywhere", async () => {
    const { publishableKey, user, client } = await setup();
    const code = await emailedResetCode(publishableKey, user.email);
    expect((await client.post("/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "the owner's new passphrase" })).status).toBe(200);
    const reset = await clientApi(publishableKey).post("/auth/reset-password", { email: user.email, code, newPassword: "the thief's passphrase" });
    expectProblem(reset, 400, "invalid_code");
    expectProblem(await clientApi(publishableKey).post("/auth/login", { email: user.email, password: "the thief's passphrase" }), 401, "invalid_credentials");
    expect((await clientApi(publishableKey).post("/auth/login", { email: user.email, password: "the owner's new passphrase" })).status).toBe(200);
  });

  it("resets nothing once the operator moved the account to another address", async () => {
    const { publishableKey, api, user } = await setup();
    const code = await emailedResetCode(publishableKey, user.email);
    const moved = await api.patch(`/users/${user.id}`, { email: uniqueEmail("moved") });
    expect(moved.status, moved.text).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/reset-password", { email: user.email, code, newPassword: "the thief's passphrase" }), 400, "invalid_code");
    const fresh = await emailedResetCode(publishableKey, moved.body.email);
    expect((await clientApi(publishableKey).post("/auth/reset-password", { email: moved.body.email, code: fresh, newPassword: "the owner's new passphrase" })).status).toBe(200);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("a redemption waiting on a revocation in progress", () => {
  it("sees the revocation once it commits: the ticket opens nothing", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await nativeTicket(environmentId, user);
    const environment = await findEnvironment(getDb(), environmentId);
    let redemption: Promise<ApiResponse> | undefined;
    await getDb().transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for("update");
      await revokeAllUserSessions(tx, { environmentId: environment!.id, userId: user.id }, SYSTEM_ACTOR, "revoke_all");
      // The redemption spends the ticket, then waits here for the user's row.
      redemption = redeem(publishableKey, ticket);
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    expectProblem(await redemption!, 400, "invalid_code");
    expect(await sessionCount(user.id)).toBe(1);
  });

  // Review finding: stamping the revocation's time let in whatever its transaction
  // overlapped. A sign-in that read the old credentials before the revocation
  // committed must not open a session, nor a second-factor challenge that works, after it.
  it("a password sign-in that checked the credentials before the revocation committed opens no session", async () => {
    const { publishableKey, environmentId, user } = await setup();
    let login: Promise<ApiResponse> | undefined;
    await revokingEverythingWhile(environmentId, user.id, () => {
      login = clientApi(publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    });
    expectProblem(await login!, 401, "invalid_credentials");
    const active = await getDb().select().from(sessions).where(and(eq(sessions.userId, user.id), eq(sessions.status, "active")));
    expect(active).toEqual([]);
    const created = await getDb().select().from(events).where(and(eq(events.subjectId, user.id), eq(events.type, "session.created")));
    expect(created).toHaveLength(1);
  });

  it("nor does a second-factor challenge begun during it, with the right code", async () => {
    const { publishableKey, api, environmentId } = await mfaEnvironment();
    const owner = await mfaUser(publishableKey, api);
    let login: Promise<ApiResponse> | undefined;
    await revokingEverythingWhile(environmentId, owner.userId, () => {
      login = clientApi(publishableKey).post("/auth/login", { email: owner.email, password: STRONG_PASSWORD });
    });
    const started = await login!;
    expect(started.body.status, started.text).toBe("needs_second_factor");
    await awayFromStepEdge();
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: started.body.mfaToken, code: totpCode(owner.secret) }), 400, "invalid_code");
    const active = await getDb().select().from(sessions).where(and(eq(sessions.userId, owner.userId), eq(sessions.status, "active")));
    expect(active).toEqual([]);
  });
});

/** Revokes every session of the user in a transaction that holds the user's row (as a password change does) while `during` starts its requests. */
async function revokingEverythingWhile(environmentId: string, userId: string, during: () => void) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no environment");
  await getDb().transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await revokeAllUserSessions(tx, { environmentId: environment.id, userId }, SYSTEM_ACTOR, "revoke_all");
    during();
    await new Promise((resolve) => setTimeout(resolve, 700));
  });
}
