import { and, eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import ApplicationsPage from "@/app/(dashboard)/dashboard/applications/page";
import { getDb } from "@/db/client";
import { applications, environments, events, users } from "@/db/schema";
import { SYSTEM_ACTOR } from "@/lib/audit/record-event";
import {
  addEnvironmentEndpoint,
  createApplicationEndpoint,
  deleteApplicationEndpoint,
  deleteEnvironmentEndpoint,
  listApplicationsEndpoint,
  renameApplicationEndpoint,
  renameEnvironmentEndpoint,
  replaceFrontendHostsEndpoint,
} from "@/lib/applications/endpoints";
import { operatorSignInAction } from "@/lib/dashboard/actions/sign-in";
import { loadOperation } from "@/lib/dashboard/load-operation";
import { runOperatorAction } from "@/lib/dashboard/run-operator-action";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { route } from "@/lib/http/route";
import { IDLE_STATE, successState } from "@/lib/hosted/form-state";
import type { OperatorRole } from "@/lib/operation/caller";
import { ALL_OPERATIONS } from "@/lib/openapi/operations";
import { createOperator } from "@/lib/operators/create-operator";
import { internalEnvironment } from "@/lib/operators/internal-environment";
import { setOperatorPassword } from "@/lib/operators/sign-in-link";
import { call, expectProblem, refusalOf, serverApi } from "../helpers/api";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { orRedirect, pageBrowser, signIn } from "../helpers/hosted-page-browser";

vi.mock("next/headers", () => import("../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));

const context = { requestId: "req_applications_test", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
const operator = (role: OperatorRole) => ({ id: `op_${role}`, email: `${role}@operators.example.com`, role, hasSecondFactor: true, sessionProvedSecondFactor: true });
const run = <E extends Parameters<typeof runOperatorOperation>[0]>(target: E, role: OperatorRole, input: Parameters<typeof runOperatorOperation>[3]) =>
  runOperatorOperation(target, operator(role), null, input, context);

async function allApplications() {
  const page = await run(listApplicationsEndpoint, "viewer", { query: { limit: "100" } });
  const items = [...(page?.items ?? [])];
  let cursor = page?.nextCursor;
  while (cursor) {
    const next = await run(listApplicationsEndpoint, "viewer", { query: { limit: "100", cursor } });
    items.push(...(next?.items ?? []));
    cursor = next?.nextCursor;
  }
  return items;
}

describe("applications and environments (dashboard-only operations)", () => {
  it("creates an application with a first development environment and its secret key (shown once), lists it, adds a production environment", async () => {
    const created = await run(createApplicationEndpoint, "admin", { body: { name: "Shop" } });
    expect(created?.secretKey).toMatch(/^sk_test_/);
    expect((await serverApi(created?.secretKey ?? "").get("/users/count")).status).toBe(200);
    const added = await run(addEnvironmentEndpoint, "owner", { params: { applicationId: created?.applicationId }, body: { name: "Live", kind: "production" } });
    expect(added?.secretKey).toMatch(/^sk_live_/);
    const listed = (await allApplications()).find((app) => app.id === created?.applicationId);
    expect(listed).toMatchObject({ name: "Shop", environments: [{ name: "Development", kind: "development" }, { name: "Live", kind: "production" }] });
    expect(JSON.stringify(listed)).not.toContain(created?.secretKey);
    const internal = await internalEnvironment(getDb());
    const [event] = await getDb().select().from(events).where(and(eq(events.environmentId, internal.id), eq(events.type, "application.created")));
    expect(event).toBeDefined();
    const own = await getDb().select().from(events).where(and(eq(events.environmentId, created?.environmentId ?? ""), eq(events.type, "environment.created")));
    expect(own[0]).toMatchObject({ actorType: "operator", actorId: "op_admin" });
  });

  it("pages applications by keyset: no duplicates, no gaps; a foreign cursor is 400", async () => {
    for (let i = 0; i < 3; i += 1) await run(createApplicationEndpoint, "admin", { body: { name: `Paged ${i}` } });
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await run(listApplicationsEndpoint, "viewer", { query: { limit: "2", ...(cursor ? { cursor } : {}) } });
      expect(page?.items.length).toBeLessThanOrEqual(2);
      seen.push(...(page?.items.map((app) => app.id) ?? []));
      cursor = page?.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect((await refusalOf(run(listApplicationsEndpoint, "viewer", { query: { cursor: unknownId() } }))).code).toBe("invalid_request");
    expect((await refusalOf(run(listApplicationsEndpoint, "viewer", { query: { limit: "1000" } }))).code).toBe("invalid_request");
  });

  it("renames an application and an environment; bad names are 400; unknown ids 404", async () => {
    const env = await newEnvironment();
    expect(await run(renameApplicationEndpoint, "admin", { params: { applicationId: env.applicationId }, body: { name: "  Renamed app " } })).toEqual({ id: env.applicationId, name: "Renamed app" });
    expect(await run(renameEnvironmentEndpoint, "admin", { params: { environmentId: env.environmentId }, body: { name: "Staging" } })).toEqual({ id: env.environmentId, name: "Staging" });
    const [row] = await getDb().select().from(environments).where(eq(environments.id, env.environmentId));
    expect(row?.name).toBe("Staging");
    for (const name of ["", "   ", "x".repeat(101), "tab\tname", 42, null]) {
      expect((await refusalOf(run(renameEnvironmentEndpoint, "admin", { params: { environmentId: env.environmentId }, body: { name } }))).code).toBe("invalid_request");
    }
    expect((await refusalOf(run(renameApplicationEndpoint, "admin", { params: { applicationId: env.applicationId }, body: { name: "ok", extra: 1 } }))).code).toBe("invalid_request");
    expect((await refusalOf(run(renameApplicationEndpoint, "admin", { params: { applicationId: unknownId() }, body: { name: "x" } }))).code).toBe("resource_not_found");
    expect((await refusalOf(run(renameEnvironmentEndpoint, "admin", { params: { environmentId: "nope" }, body: { name: "x" } }))).code).toBe("invalid_request");
  });

  it("deletes an environment and everything in it, only when its name is typed; the event goes to the internal environment", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const wrong = await refusalOf(run(deleteEnvironmentEndpoint, "admin", { params: { environmentId: env.environmentId }, body: { confirmation: "something else" } }));
    expect(wrong.code).toBe("invalid_request");
    expect(wrong.fieldErrors?.[0]?.field).toBe("confirmation");
    expect((await env.api.get("/users/count")).body.count).toBe(1);
    const [row] = await getDb().select().from(environments).where(eq(environments.id, env.environmentId));
    expect(await run(deleteEnvironmentEndpoint, "admin", { params: { environmentId: env.environmentId }, body: { confirmation: row?.name } })).toEqual({ id: env.environmentId, deletedEnvironments: 1 });
    expectProblem(await env.api.get("/users/count"), 401, "unauthorized");
    expect(await getDb().select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    const internal = await internalEnvironment(getDb());
    const deleted = await getDb().select().from(events).where(and(eq(events.environmentId, internal.id), eq(events.type, "environment.deleted")));
    expect(deleted.map((event) => event.data)).toContainEqual({ applicationId: env.applicationId, environmentId: env.environmentId, name: row?.name });
    expect((await refusalOf(run(deleteEnvironmentEndpoint, "admin", { params: { environmentId: env.environmentId }, body: { confirmation: row?.name } }))).code).toBe("resource_not_found");
  });

  it("deletes an application with all its environments in one go", async () => {
    const created = await run(createApplicationEndpoint, "admin", { body: { name: "Doomed" } });
    const added = await run(addEnvironmentEndpoint, "admin", { params: { applicationId: created?.applicationId }, body: { name: "Prod", kind: "production" } });
    expect((await refusalOf(run(deleteApplicationEndpoint, "admin", { params: { applicationId: created?.applicationId }, body: { confirmation: "doomed" } }))).code).toBe("invalid_request");
    expect(await run(deleteApplicationEndpoint, "admin", { params: { applicationId: created?.applicationId }, body: { confirmation: "Doomed" } })).toEqual({ id: created?.applicationId, deletedEnvironments: 2 });
    expect(await getDb().select().from(applications).where(eq(applications.id, created?.applicationId ?? ""))).toHaveLength(0);
    expectProblem(await serverApi(added?.secretKey ?? "").get("/users/count"), 401, "unauthorized");
  });

  it("the internal environment and its application are never listed, renamed, extended, re-hosted or deleted (404)", async () => {
    const internal = await internalEnvironment(getDb());
    const listed = await allApplications();
    expect(listed.some((app) => app.id === internal.applicationId)).toBe(false);
    expect(listed.flatMap((app) => app.environments).some((env) => env.id === internal.id)).toBe(false);
    const attempts = [
      run(renameEnvironmentEndpoint, "owner", { params: { environmentId: internal.id }, body: { name: "Mine" } }),
      run(deleteEnvironmentEndpoint, "owner", { params: { environmentId: internal.id }, body: { confirmation: internal.name } }),
      run(renameApplicationEndpoint, "owner", { params: { applicationId: internal.applicationId }, body: { name: "Mine" } }),
      run(deleteApplicationEndpoint, "owner", { params: { applicationId: internal.applicationId }, body: { confirmation: "Gatehouse dashboard" } }),
      run(addEnvironmentEndpoint, "owner", { params: { applicationId: internal.applicationId }, body: { name: "Sneaky" } }),
      run(replaceFrontendHostsEndpoint, "owner", { params: { environmentId: internal.id }, body: { hosts: ["sneaky.example.test"] } }),
    ];
    for (const refusal of await Promise.all(attempts.map(refusalOf))) expect(refusal.code).toBe("resource_not_found");
    const [row] = await getDb().select().from(environments).where(eq(environments.id, internal.id));
    expect(row?.name).toBe(internal.name);
  });

  it("a viewer lists but is refused every write with 403 forbidden; nothing changes", async () => {
    const env = await newEnvironment();
    const writes = [
      run(createApplicationEndpoint, "viewer", { body: { name: "Nope" } }),
      run(addEnvironmentEndpoint, "viewer", { params: { applicationId: env.applicationId }, body: { name: "Nope" } }),
      run(renameApplicationEndpoint, "viewer", { params: { applicationId: env.applicationId }, body: { name: "Nope" } }),
      run(renameEnvironmentEndpoint, "viewer", { params: { environmentId: env.environmentId }, body: { name: "Nope" } }),
      run(deleteEnvironmentEndpoint, "viewer", { params: { environmentId: env.environmentId }, body: { confirmation: "x" } }),
      run(deleteApplicationEndpoint, "viewer", { params: { applicationId: env.applicationId }, body: { confirmation: "x" } }),
      run(replaceFrontendHostsEndpoint, "viewer", { params: { environmentId: env.environmentId }, body: { hosts: ["nope.example.test"] } }),
    ];
    for (const refusal of await Promise.all(writes.map(refusalOf))) expect(refusal.code).toBe("forbidden");
    expect((await env.api.get("/users/count")).status).toBe(200);
    expect((await allApplications()).some((app) => app.name === "Nope")).toBe(false);
  });

  it("are dashboard-only: route() refuses to serve them, the OpenAPI document and its operation list skip them, and a secret key cannot reach them", async () => {
    expect(() => route(listApplicationsEndpoint)).toThrow(/dashboard-only/);
    expect(ALL_OPERATIONS.some((operation) => operation.auth === "operator")).toBe(false);
    const document = await call("GET", "/api/openapi.json");
    expect(JSON.stringify(document.body)).not.toMatch(/listApplications|deleteEnvironment|dashboard:/);
    const env = await newEnvironment();
    expectProblem(await env.api.get("/applications"), 404, "resource_not_found");
  });

  it("signed out, the page load and the form action redirect to the sign-in page and change nothing", async () => {
    signIn(null);
    const env = await newEnvironment();
    expect(await orRedirect(() => loadOperation(listApplicationsEndpoint, {}, { environmentId: null }))).toEqual({ redirect: "/dashboard/sign-in" });
    const action = await orRedirect(() =>
      runOperatorAction(deleteEnvironmentEndpoint, { params: { environmentId: env.environmentId }, body: { confirmation: "x" } }, { environmentId: null, fields: [], then: () => successState(null) }),
    );
    expect(action).toEqual({ redirect: "/dashboard/sign-in" });
    expect((await env.api.get("/users/count")).status).toBe(200);
  });
});

/** The dashboard browser's next request, with the cookies in its jar. */
function browse() {
  const cookie = [...pageBrowser.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  pageBrowser.headers = new Headers({ host: "localhost:3000", "accept-language": "en", "x-forwarded-for": "198.51.100.7", ...(cookie ? { cookie } : {}) });
}

/** Signs the page browser in to the dashboard as a new viewer. */
async function signInAsViewer() {
  signIn(null);
  browse();
  const email = uniqueEmail("op-viewer");
  const { signInLink } = await createOperator(getDb(), { email, role: "viewer" }, SYSTEM_ACTOR);
  await setOperatorPassword(getDb(), { token: new URL(signInLink.url).searchParams.get("token") ?? "", password: STRONG_PASSWORD }, context);
  const form = new FormData();
  form.set("email", email);
  form.set("password", STRONG_PASSWORD);
  await orRedirect(() => operatorSignInAction(IDLE_STATE, form));
  browse();
}

describe("the Applications page", () => {
  const render = async (search: Record<string, string>) => renderToStaticMarkup(await ApplicationsPage({ searchParams: Promise.resolve(search) }));

  it("regression: a junk cursor, or the id of no listed application, is said in place with the first page's link, not a 500", async () => {
    const env = await newEnvironment();
    await signInAsViewer();
    for (const cursor of ["junk", unknownId()]) {
      const html = await render({ cursor });
      expect(html).toContain("This page link does not work");
      expect(html).toContain('href="/dashboard/applications"');
      expect(html).toContain("First page");
    }
    // The environment switch is kept in the first page's link.
    expect(await render({ env: env.environmentId, cursor: "junk" })).toContain(`href="/dashboard/applications?env=${env.environmentId}"`);
    // A good page is unchanged.
    const first = await render({});
    expect(first).not.toContain("This page link does not work");
  });
});
