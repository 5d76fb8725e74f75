import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { organizationMemberships, organizationRoles, organizations, sessions } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import { findEnvironment } from "@/lib/environments/context";
import { addMembership } from "@/lib/organizations/memberships";
import { call, expectProblem, type ApiResponse } from "../helpers/api";
import { createUser, newEnvironment, openSession, uniqueEmail, unknownId } from "../helpers/fixtures";

type Environment = Awaited<ReturnType<typeof newEnvironment>>;

const ALL_ORG_PERMISSIONS = ["org:members:manage", "org:invitations:manage", "org:settings:manage"];

async function signedInUser(env: Environment) {
  const user = await createUser(env.api, { email: uniqueEmail("active-org") });
  const { session, token } = await openSession(env.environmentId, user.id);
  return { user, session, token };
}

async function newOrganization(env: Environment, members: { userId: string; role: string }[], name = "Acme") {
  const environment = await findEnvironment(getDb(), env.environmentId);
  if (!environment) throw new Error("no such environment");
  const [organization] = await getDb()
    .insert(organizations)
    .values({ environmentId: env.environmentId, name, slug: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}` })
    .returning({ id: organizations.id });
  if (!organization) throw new Error("no organization");
  for (const member of members) {
    await addMembership(getDb(), environment, { organizationId: organization.id, ...member }, SYSTEM_ACTOR);
  }
  return organization.id;
}

function headers(env: Environment, token?: string) {
  return { "x-api-key": env.publishableKey, ...(token ? { cookie: `__gh_session=${token}` } : {}) };
}

function setActive(env: Environment, token: string | undefined, body: unknown) {
  return call("POST", "/_svc/organizations/active", { headers: headers(env, token), body });
}

async function refreshedClaims(env: Environment, token: string) {
  const res = await call("POST", "/_svc/auth/token", { headers: headers(env, token) });
  expect(res.status, res.text).toBe(200);
  return decodeJwt(res.body.accessToken as string);
}

async function bootProbe(env: Environment, token: string) {
  const res = await call("GET", "/_svc/client", { headers: headers(env, token) });
  expect(res.status, res.text).toBe(200);
  return res.body as { organizations: { id: string; name: string; role: string; roleName: string | null }[]; activeOrganizationId: string | null };
}

function expectNoOrgClaims(claims: Record<string, unknown>) {
  expect(claims).not.toHaveProperty("org_id");
  expect(claims).not.toHaveProperty("org_role");
  expect(claims).not.toHaveProperty("org_permissions");
}

function expectOk(res: ApiResponse) {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
}

describe("POST /_svc/organizations/active", () => {
  it("makes the session act for an organization: the answer's token and every refresh carry org_id, org_role, org_permissions", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);

    expectNoOrgClaims(await refreshedClaims(env, token));
    const res = await setActive(env, token, { organizationId });
    expectOk(res);
    expect(res.body.organization).toEqual({ id: organizationId, name: "Acme", role: "owner", roleName: "Owner" });
    expect(decodeJwt(res.body.accessToken)).toMatchObject({ org_id: organizationId, org_role: "owner", org_permissions: ALL_ORG_PERMISSIONS });
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());

    const claims = await refreshedClaims(env, token);
    expect(claims).toMatchObject({ sub: user.id, org_id: organizationId, org_role: "owner", org_permissions: ALL_ORG_PERMISSIONS });
  });

  it("grants a member of the default set no permissions, and follows a role change at the next refresh", async () => {
    const env = await newEnvironment();
    const { user: owner } = await signedInUser(env);
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [
      { userId: owner.id, role: "owner" },
      { userId: user.id, role: "member" },
    ]);
    expectOk(await setActive(env, token, { organizationId }));
    expect(await refreshedClaims(env, token)).toMatchObject({ org_id: organizationId, org_role: "member", org_permissions: [] });

    await getDb()
      .update(organizationMemberships)
      .set({ role: "admin" })
      .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, user.id)));
    expect(await refreshedClaims(env, token)).toMatchObject({ org_role: "admin", org_permissions: ALL_ORG_PERMISSIONS });
  });

  it("carries a custom role's permissions, the application's own keys included, from the environment's stored role set", async () => {
    const env = await newEnvironment();
    await getDb()
      .insert(organizationRoles)
      .values([
        { environmentId: env.environmentId, key: "owner", name: "Owner", permissions: ALL_ORG_PERMISSIONS, position: 0 },
        { environmentId: env.environmentId, key: "billing", name: "Billing", permissions: ["invoices:read", "invoices:write"], position: 1 },
      ]);
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "billing" }]);

    const res = await setActive(env, token, { organizationId });
    expectOk(res);
    expect(res.body.organization).toMatchObject({ role: "billing", roleName: "Billing" });
    expect(await refreshedClaims(env, token)).toMatchObject({ org_role: "billing", org_permissions: ["invoices:read", "invoices:write"] });
  });

  it("drops the claims at the next refresh once the member is removed, and the boot probe no longer shows the organization active", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "admin" }]);
    const other = await newOrganization(env, [{ userId: user.id, role: "member" }], "Other");
    expectOk(await setActive(env, token, { organizationId }));
    expect((await refreshedClaims(env, token)).org_id).toBe(organizationId);

    await getDb()
      .delete(organizationMemberships)
      .where(and(eq(organizationMemberships.organizationId, organizationId), eq(organizationMemberships.userId, user.id)));
    expectNoOrgClaims(await refreshedClaims(env, token));
    const probe = await bootProbe(env, token);
    expect(probe.organizations.map((o) => o.id)).toEqual([other]);
    expect(probe.activeOrganizationId).toBeNull();
  });

  it("drops the claims at the next refresh when an owner removes the member through the Client API", async () => {
    const env = await newEnvironment();
    const owner = await signedInUser(env);
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [
      { userId: owner.user.id, role: "owner" },
      { userId: user.id, role: "member" },
    ]);
    expectOk(await setActive(env, token, { organizationId }));
    expect((await refreshedClaims(env, token)).org_id).toBe(organizationId);
    const removed = await call("DELETE", `/_svc/organizations/${organizationId}/members/${user.id}`, { headers: headers(env, owner.token) });
    expect(removed.status, removed.text).toBeLessThan(300);
    expectNoOrgClaims(await refreshedClaims(env, token));
    expectProblem(await setActive(env, token, { organizationId }), 404, "resource_not_found");
  });

  it("drops the claims once the organization is deleted", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    expectOk(await setActive(env, token, { organizationId }));
    await getDb().delete(organizations).where(eq(organizations.id, organizationId));
    expectNoOrgClaims(await refreshedClaims(env, token));
  });

  it("clears the active organization with null", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    expectOk(await setActive(env, token, { organizationId }));
    const res = await setActive(env, token, { organizationId: null });
    expectOk(res);
    expect(res.body.organization).toBeNull();
    expectNoOrgClaims(decodeJwt(res.body.accessToken));
    expectNoOrgClaims(await refreshedClaims(env, token));
    expect((await bootProbe(env, token)).activeOrganizationId).toBeNull();
  });

  it("is per session: another session of the same user acts for no organization", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const second = await openSession(env.environmentId, user.id);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    expectOk(await setActive(env, token, { organizationId }));
    expectNoOrgClaims(await refreshedClaims(env, second.token));
    expect((await bootProbe(env, second.token)).activeOrganizationId).toBeNull();
  });

  it("answers 404 for an organization the caller is not a member of, an unknown one, and one of another environment, and changes nothing", async () => {
    const env = await newEnvironment();
    const { user, token, session } = await signedInUser(env);
    const { user: stranger } = await signedInUser(env);
    const mine = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    const notMine = await newOrganization(env, [{ userId: stranger.id, role: "owner" }]);
    const otherEnv = await newEnvironment();
    const { user: foreigner } = await signedInUser(otherEnv);
    const foreign = await newOrganization(otherEnv, [{ userId: foreigner.id, role: "owner" }]);
    expectOk(await setActive(env, token, { organizationId: mine }));

    for (const organizationId of [notMine, unknownId(), foreign]) {
      const res = await setActive(env, token, { organizationId });
      expectProblem(res, 404, "resource_not_found");
      expect(res.text).not.toContain(organizationId);
    }
    const [row] = await getDb().select({ active: sessions.activeOrganizationId }).from(sessions).where(eq(sessions.id, session.id));
    expect(row?.active).toBe(mine);
    expect((await refreshedClaims(env, token)).org_id).toBe(mine);
  });

  it("never mints claims for a membership of another environment, even if the session row names its organization", async () => {
    const env = await newEnvironment();
    const { token, session } = await signedInUser(env);
    const otherEnv = await newEnvironment();
    const { user: foreigner } = await signedInUser(otherEnv);
    const foreign = await newOrganization(otherEnv, [{ userId: foreigner.id, role: "owner" }]);
    await getDb().update(sessions).set({ activeOrganizationId: foreign }).where(eq(sessions.id, session.id));
    expectNoOrgClaims(await refreshedClaims(env, token));
    expect((await bootProbe(env, token)).activeOrganizationId).toBeNull();
  });

  it("never mints claims for an organization of the same environment the user is not a member of, even if the session row names it", async () => {
    const env = await newEnvironment();
    const { token, session } = await signedInUser(env);
    const { user: stranger } = await signedInUser(env);
    const theirs = await newOrganization(env, [{ userId: stranger.id, role: "owner" }]);
    await getDb().update(sessions).set({ activeOrganizationId: theirs }).where(eq(sessions.id, session.id));
    expectNoOrgClaims(await refreshedClaims(env, token));
    expect((await bootProbe(env, token)).activeOrganizationId).toBeNull();
  });

  it("answers 403 forbidden when organizations are turned off; the boot probe lists none and tokens carry no org claims", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    expectOk(await setActive(env, token, { organizationId }));
    const patched = await env.api.patch("/environment", { organizations: { enabled: false } });
    expect(patched.status, patched.text).toBe(200);
    expectProblem(await setActive(env, token, { organizationId }), 403, "forbidden");
    expect(await bootProbe(env, token)).toMatchObject({ organizations: [], activeOrganizationId: null });
    expectNoOrgClaims(await refreshedClaims(env, token));
  });

  it("needs a signed-in caller", async () => {
    const env = await newEnvironment();
    expectProblem(await setActive(env, undefined, { organizationId: null }), 401, "unauthorized");
  });

  it("refuses hostile bodies with 400 problem+json", async () => {
    const env = await newEnvironment();
    const { token } = await signedInUser(env);
    for (const body of [{}, { organizationId: "not-a-uuid" }, { organizationId: 42 }, { organizationId: null, extra: true }, [], "null"]) {
      expectProblem(await setActive(env, token, body), 400, "invalid_request");
    }
    const raw = await call("POST", "/_svc/organizations/active", {
      headers: { ...headers(env, token), "content-type": "application/json" },
      rawBody: "{not json",
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get("content-type")).toBe("application/problem+json");
  });

  it("is also carried by template tokens, which cannot override the org claims", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const organizationId = await newOrganization(env, [{ userId: user.id, role: "owner" }]);
    const refused = await env.api.post("/jwt-templates", { name: "forged", claims: { org_permissions: ["everything"] } });
    expectProblem(refused, 400, "invalid_request");
    const template = await env.api.post("/jwt-templates", { name: "app", claims: { plan: "pro" } });
    expect(template.status, template.text).toBe(201);
    expectOk(await setActive(env, token, { organizationId }));
    const minted = await call("POST", "/_svc/auth/token/app", { headers: headers(env, token) });
    expect(minted.status, minted.text).toBe(200);
    expect(decodeJwt(minted.body.accessToken as string)).toMatchObject({ plan: "pro", org_id: organizationId, org_role: "owner" });
  });
});

describe("GET /_svc/client organizations", () => {
  it("lists the caller's memberships, oldest first, with which one is active", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedInUser(env);
    const first = await newOrganization(env, [{ userId: user.id, role: "owner" }], "First");
    const second = await newOrganization(env, [{ userId: user.id, role: "member" }], "Second");
    const { user: stranger } = await signedInUser(env);
    await newOrganization(env, [{ userId: stranger.id, role: "owner" }], "Theirs");

    let probe = await bootProbe(env, token);
    expect(probe.organizations).toEqual([
      { id: first, name: "First", role: "owner", roleName: "Owner" },
      { id: second, name: "Second", role: "member", roleName: "Member" },
    ]);
    expect(probe.activeOrganizationId).toBeNull();
    expectOk(await setActive(env, token, { organizationId: second }));
    probe = await bootProbe(env, token);
    expect(probe.activeOrganizationId).toBe(second);
  });

  it("answers signed-out callers with no organizations", async () => {
    const env = await newEnvironment();
    const res = await call("GET", "/_svc/client", { headers: headers(env) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ authenticated: false, organizations: [], activeOrganizationId: null });
  });
});
