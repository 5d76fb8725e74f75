import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { latestEmail, signedUpClient } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("data requests", () => {
  it("builds the export in the background, emails a single-use link, and the file holds no secrets", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await api.patch(`/users/${session.user.id}/metadata`, { privateMetadata: { riskScore: 97 }, publicMetadata: { plan: "pro" } });

    const requested = await client.post("/users/me/data-requests");
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ status: "pending", downloadedAt: null });
    await expect.poll(async () => (await client.get("/users/me/data-requests")).body.items[0].status).toBe("ready");

    const mail = await latestEmail(email);
    expect(mail.template).toBe("data_export_ready");
    const link = new URL(/https?:\/\/\S+\/download\?token=\S+/.exec(mail.text)?.[0] ?? "");
    const download = await call("GET", `${link.pathname}${link.search}`, { headers: { host: link.host } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(download.body).toMatchObject({
      format: "gatehouse-user-export",
      user: { email, publicMetadata: { plan: "pro" } },
      emailAddresses: [{ email }],
    });
    expect(download.body.sessions.length).toBeGreaterThan(0);
    expect(download.text).not.toContain("riskScore");
    expect(download.text).not.toMatch(/argon2|passwordHash|tokenHash|token_hash/);

    const again = await call("GET", `${link.pathname}${link.search}`, { headers: { host: link.host } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("invalid_code");
    expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("downloaded");
  });

  it("a wrong token, another id or another environment gets nothing", async () => {
    const first = await newEnvironment();
    const email = uniqueEmail();
    const { client } = await signedUpClient(first.publishableKey, email, STRONG_PASSWORD);
    const requested = await client.post("/users/me/data-requests");
    await expect.poll(async () => (await client.get("/users/me/data-requests")).body.items[0].status).toBe("ready");
    const id = requested.body.id;
    const wrong = await call("GET", `/_svc/users/me/data-requests/${id}/download?token=wrong`, { headers: { "x-api-key": first.publishableKey } });
    expect(wrong.body.code).toBe("invalid_code");
    const token = new URL(/https?:\/\/\S+\/download\?token=\S+/.exec((await latestEmail(email)).text)?.[0] ?? "").searchParams.get("token");
    const second = await newEnvironment();
    const foreign = await call("GET", `/_svc/users/me/data-requests/${id}/download?token=${token}`, { headers: { "x-api-key": second.publishableKey } });
    expect(foreign.body.code).toBe("invalid_code");
    expect((await call("GET", `/_svc/users/me/data-requests/not-a-uuid/download?token=x`, { headers: { "x-api-key": first.publishableKey } })).status).toBe(400);
  });

  it("asking twice while one is pending returns the same request; signed-out callers get 401", async () => {
    const { publishableKey } = await newEnvironment();
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const results = await Promise.all(Array.from({ length: 5 }, () => client.post("/users/me/data-requests")));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const anonymous = await call("GET", "/_svc/users/me/data-requests", { headers: { "x-api-key": publishableKey } });
    expect(anonymous.status).toBe(401);
  });
});
