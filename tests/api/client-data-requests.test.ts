import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jobs } from "@/db/schema";
import { backoffSeconds, runDueJobs } from "@/lib/jobs/run-due-jobs";
import { call } from "../helpers/api";
import { latestEmail, signedUpClient } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("data requests", () => {
  it("regression (review): an export asked for just before the account is deleted is called off, never built or mailed", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const requested = await client.post("/users/me/data-requests");
    expect(requested.body.status).toBe("pending");
    expect((await api.delete(`/users/${session.user.id}`)).status).toBe(200);
    await runDueJobs(getDb());
    expect((await latestEmail(email)).template).not.toBe("data_export_ready");
    const [job] = await getDb().select().from(jobs).where(sql`${jobs.payload}->>'dataRequestId' = ${requested.body.id}`);
    expect(job?.finishedAt).not.toBeNull();
  });

  it("builds the export in a job, emails a single-use link, and the file holds no secrets", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await api.patch(`/users/${session.user.id}/metadata`, { privateMetadata: { riskScore: 97 }, publicMetadata: { plan: "pro" } });

    const requested = await client.post("/users/me/data-requests");
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ status: "pending", downloadedAt: null });
    expect(await runDueJobs(getDb())).toMatchObject({ claimed: 1, succeeded: 1 });
    expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("ready");

    const mail = await latestEmail(email);
    expect(mail.template).toBe("data_export_ready");
    const link = new URL(/https?:\/\/\S+\/download\?token=\S+/.exec(mail.text)?.[0] ?? "");
    const token = link.searchParams.get("token") ?? "";
    // Regression (review): opening the link used up the one download, so a mail scanner's
    // pre-fetch took it. Now GET changes nothing, for code and for browsers.
    const peeked = await call("GET", `${link.pathname}${link.search}`, { headers: { host: link.host } });
    expect(peeked.body).toMatchObject({ status: "ready" });
    const browsed = await call("GET", `${link.pathname}${link.search}`, { headers: { host: link.host, accept: "text/html" } });
    expect(browsed.status).toBe(303);
    const page = new URL(browsed.headers.get("location") ?? "");
    expect(`${page.host}${page.pathname}`).toBe(`${link.host}/account/data-export`);
    expect(page.searchParams.get("token")).toBe(token);
    expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("ready");

    const download = await call("POST", link.pathname, { headers: { host: link.host }, body: { token } });
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

    const again = await call("POST", link.pathname, { headers: { host: link.host }, body: { token } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("invalid_code");
    expect((await call("GET", `${link.pathname}${link.search}`, { headers: { host: link.host } })).body.code).toBe("invalid_code");
    expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("downloaded");
  });

  it("the hosted page's plain form post (no JavaScript) downloads the export once", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { client } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await client.post("/users/me/data-requests");
    await runDueJobs(getDb());
    const link = new URL(/https?:\/\/\S+\/download\?token=\S+/.exec((await latestEmail(email)).text)?.[0] ?? "");
    const form = new URLSearchParams({ token: link.searchParams.get("token") ?? "" }).toString();
    const headers = { host: link.host, origin: `${link.protocol}//${link.host}`, "content-type": "application/x-www-form-urlencoded" };
    const download = await call("POST", link.pathname, { headers, rawBody: form });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(download.body).toMatchObject({ user: { email } });
    expect((await call("POST", link.pathname, { headers, rawBody: form })).body.code).toBe("invalid_code");
    // A form post from a foreign site is refused like any other cross-site write.
    const foreign = await call("POST", link.pathname, { headers: { ...headers, origin: "https://evil.example" }, rawBody: form });
    expect(foreign.body.code).toBe("origin_not_allowed");
  });

  it("a wrong token, another id or another environment gets nothing", async () => {
    const first = await newEnvironment();
    const email = uniqueEmail();
    const { client } = await signedUpClient(first.publishableKey, email, STRONG_PASSWORD);
    const requested = await client.post("/users/me/data-requests");
    await runDueJobs(getDb());
    expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("ready");
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

  describe("when the email cannot be sent", () => {
    afterEach(() => {
      delete process.env.EMAIL_TRANSPORT;
      delete process.env.SMTP_URL;
    });

    it("the export job is retried with doubling waits; after its last attempt the request shows failed and a new one works", async () => {
      const { publishableKey } = await newEnvironment();
      const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
      await runDueJobs(getDb()); // what earlier tests in this file queued
      const requested = await client.post("/users/me/data-requests");
      const [job] = await getDb().select().from(jobs).where(sql`${jobs.payload}->>'dataRequestId' = ${requested.body.id}`);
      if (!job) throw new Error("requesting an export queued no job");
      expect(job).toMatchObject({ kind: "data_export", status: "pending", attempts: 0, maxAttempts: 5 });

      process.env.EMAIL_TRANSPORT = "smtp";
      process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
      const jobRow = async () => (await getDb().select().from(jobs).where(eq(jobs.id, job.id)))[0];
      for (let attempt = 1; attempt < job.maxAttempts; attempt++) {
        expect(await runDueJobs(getDb())).toEqual({ claimed: 1, succeeded: 0, retried: 1, failed: 0 });
        const row = await jobRow();
        expect(row).toMatchObject({ status: "pending", attempts: attempt, lockedUntil: null, finishedAt: null });
        expect(row?.lastError).toContain("could not be sent");
        const waitSeconds = ((row?.runAt.getTime() ?? 0) - Date.now()) / 1000;
        expect(waitSeconds).toBeGreaterThan(backoffSeconds(attempt) - 5);
        expect(waitSeconds).toBeLessThanOrEqual(backoffSeconds(attempt));
        expect((await runDueJobs(getDb())).claimed).toBe(0);
        expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("pending");
        // The wait has passed.
        await getDb().update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job.id));
      }
      expect(backoffSeconds(2)).toBe(2 * backoffSeconds(1));

      expect(await runDueJobs(getDb())).toEqual({ claimed: 1, succeeded: 0, retried: 0, failed: 1 });
      expect(await jobRow()).toMatchObject({ status: "failed", attempts: job.maxAttempts });
      expect((await client.get("/users/me/data-requests")).body.items[0].status).toBe("failed");
      await getDb().update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job.id));
      expect((await runDueJobs(getDb())).claimed).toBe(0);

      delete process.env.EMAIL_TRANSPORT;
      delete process.env.SMTP_URL;
      const again = await client.post("/users/me/data-requests");
      expect(again.body).toMatchObject({ status: "pending" });
      expect(again.body.id).not.toBe(requested.body.id);
      expect(await runDueJobs(getDb())).toMatchObject({ claimed: 1, succeeded: 1 });
      expect((await client.get("/users/me/data-requests")).body.items[0]).toMatchObject({ id: again.body.id, status: "ready" });
    });
  });
});
