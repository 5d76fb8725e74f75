import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { revokeAllUserSessions } from "@/lib/sessions/revoke-sessions";
import { s256Challenge } from "@/lib/tickets/pkce";
import { issueSessionTicket } from "@/lib/tickets/session-tickets";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { awayFromStepEdge, mfaEnvironment, mfaToken, mfaUser, signedInClient, totpCode } from "../helpers/mfa";

// A sign-in still on its way to a session when all the user's sessions are revoked
// (a password change, "sign out everywhere", an operator's revoke-all) opens none
// after it: before users.sign_ins_revoked_at, a native app's ticket kept working
// for its 60 s and a half-done MFA sign-in with the old password for 5 minutes.

const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

async function nativeTicket(environmentId: string, user: { id: string; email: string }) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no environment");
  return issueSessionTicket(getDb(), environment, {
    userId: user.id,
    email: user.email,
    methods: ["oauth"],
    codeChallenge: s256Challenge(VERIFIER),
  });
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
});
