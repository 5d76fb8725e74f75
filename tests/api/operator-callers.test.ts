import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { findEnvironment } from "@/lib/environments/context";
import type { OperatorIdentity, OperatorRole } from "@/lib/operation/caller";
import { serverDeleteOrganizationEndpoint } from "@/lib/organizations/server-endpoints";
import { getEnvironmentSettingsEndpoint } from "@/lib/environments/server-endpoints";
import { banUserEndpoint, createUserEndpoint, searchUsersEndpoint } from "@/lib/users/server-endpoints";
import { expectProblem, refusalOf } from "../helpers/api";
import { createUser, newEnvironment, uniqueEmail } from "../helpers/fixtures";

const context = { requestId: "req_operator_test", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };

function operator(role: OperatorRole): OperatorIdentity {
  return { id: `op_${role}`, email: `${role}@operators.example.com`, role, hasSecondFactor: true, sessionProvedSecondFactor: true };
}

async function environmentOf(environmentId: string) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no environment");
  return environment;
}

describe("Server API operations run by a dashboard operator (the seam)", () => {
  it("a viewer reads but is refused every write with 403 forbidden naming the permission; nothing is written", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const user = await createUser(env.api, { email: uniqueEmail() });
    const page = await runOperatorOperation(searchUsersEndpoint, operator("viewer"), environment, { body: {}, query: {} }, context);
    expect(page?.items.map((row) => row.id)).toContain(user.id);
    const refused = await refusalOf(runOperatorOperation(banUserEndpoint, operator("viewer"), environment, { params: { userId: user.id } }, context));
    expect(refused.code).toBe("forbidden");
    expect(refused.properties).toMatchObject({ permission: "write" });
    expect((await env.api.get(`/users/${user.id}`)).body.status).toBe("active");
    const created = await refusalOf(runOperatorOperation(createUserEndpoint, operator("viewer"), environment, { body: { email: uniqueEmail() } }, context));
    expect(created.code).toBe("forbidden");
  });

  it("an admin's write goes through the same rules as the Server API, and its event names the operator", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const user = await createUser(env.api, { email: uniqueEmail() });
    const banned = await runOperatorOperation(banUserEndpoint, operator("admin"), environment, { params: { userId: user.id } }, context);
    expect(banned?.status).toBe("banned");
    const rows = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, env.environmentId), eq(events.type, "user.banned")));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "operator", actorId: "op_admin", requestId: "req_operator_test" });
  });

  it("the same bad input gets the same error from a dashboard operator as from the Server API", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const taken = uniqueEmail();
    await createUser(env.api, { email: taken });
    for (const body of [{ email: "not an email" }, { email: taken }, { email: uniqueEmail(), password: "short" }, { unknownField: true }]) {
      const viaApi = await env.api.post("/users", body);
      const viaOperator = await refusalOf(runOperatorOperation(createUserEndpoint, operator("owner"), environment, { body }, context));
      expectProblem(viaApi, viaOperator.status, viaOperator.code);
      expect(viaOperator.message).toBe(viaApi.body.detail);
    }
    const missing = await refusalOf(
      runOperatorOperation(serverDeleteOrganizationEndpoint, operator("admin"), environment, { params: { organizationId: "00000000-0000-4000-8000-000000000000" } }, context),
    );
    expectProblem(await env.api.delete("/organizations/00000000-0000-4000-8000-000000000000"), missing.status, missing.code);
  });

  it("regression: a viewer read the CAPTCHA's test pass token in the settings (never a secret for a viewer); admins and secret keys still see it", async () => {
    const env = await newEnvironment();
    const captcha = { enabled: true, provider: "test", testPassToken: "pass-the-captcha" };
    expect((await env.api.patch("/environment", { signUp: { captcha } })).status).toBe(200);
    const environment = await environmentOf(env.environmentId);
    const asViewer = await runOperatorOperation(getEnvironmentSettingsEndpoint, operator("viewer"), environment, {}, context);
    expect(asViewer?.signUp.captcha).toMatchObject({ enabled: true, provider: "test", testPassToken: null });
    const asAdmin = await runOperatorOperation(getEnvironmentSettingsEndpoint, operator("admin"), environment, {}, context);
    expect(asAdmin?.signUp.captcha.testPassToken).toBe("pass-the-captcha");
    expect((await env.api.get("/environment")).body.signUp.captcha.testPassToken).toBe("pass-the-captcha");
  });
});
