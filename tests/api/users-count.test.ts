import { describe, expect, it } from "vitest";
import { call, expectProblem, serverApi } from "../helpers/api";
import { createUser, newEnvironment, revokedSecretKey, uniqueEmail } from "../helpers/fixtures";

describe("GET /api/server/v1/users/count", () => {
  it("counts the environment's active and banned users, not deleted ones, and no other environment's", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    expect((await env.api.get("/users/count")).body).toEqual({ count: 0 });
    const [a, b, c] = [await createUser(env.api, { email: uniqueEmail() }), await createUser(env.api, { email: uniqueEmail() }), await createUser(env.api, { email: uniqueEmail() })];
    await createUser(other.api, { email: uniqueEmail() });
    expect((await env.api.post(`/users/${b.id}/ban`)).status).toBe(200);
    expect((await env.api.delete(`/users/${c.id}`)).status).toBeLessThan(300);
    const res = await env.api.get("/users/count");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 2 });
    expect(a.id).toBeTruthy();
    expect((await other.api.get("/users/count")).body).toEqual({ count: 1 });
  });

  it("is 401 unauthorized without a secret key, with a revoked one, or with a publishable key", async () => {
    const env = await newEnvironment();
    expectProblem(await call("GET", "/api/server/v1/users/count"), 401, "unauthorized");
    expectProblem(await serverApi(await revokedSecretKey(env.environmentId)).get("/users/count"), 401, "unauthorized");
    expectProblem(await serverApi(env.publishableKey).get("/users/count"), 401, "unauthorized");
  });

  it("ignores unknown query parameters, answers a NUL with 400 (never a 500), and refuses other methods with 405", async () => {
    const env = await newEnvironment();
    const res = await env.api.get("/users/count?status=deleted&limit=-1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 0 });
    expectProblem(await env.api.get("/users/count?x=%00"), 400, "invalid_request");
    const post = await env.api.post("/users/count", {});
    expect(post.status).toBe(405);
  });
});
