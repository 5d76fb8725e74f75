import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailAddresses, oneTimeCodes } from "@/db/schema";
import { expectProblem } from "../helpers/api";
import { clientApi, codeIn, latestEmail, signedUpClient } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("email transport down", () => {
  afterEach(() => {
    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;
  });

  it("sign-up answers 503 email_unavailable and commits nothing; a retry once mail works succeeds", async () => {
    const { publishableKey, api } = await newEnvironment();
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    const failed = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe("email_unavailable");
    expect(failed.text).not.toContain(email);
    const pending = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.email, email));
    expect(pending).toEqual([]);

    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;
    const retried = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    expect(retried.status).toBe(200);
    const verified = await client.post("/auth/signup/verify", { token: retried.body.token, code: codeIn((await latestEmail(email)).text) });
    expect(verified.status).toBe(200);
    expect((await api.post("/users/search", { email })).body.items).toHaveLength(1);
  });

  // Regression (session-holder takeover): the notices went out after the change, or
  // not at all, so a change could land without the owner ever hearing of it. They are
  // now part of the change: no notice, no change.
  it("a password change, an added address and a new primary need their notice: 503 and nothing changes", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail("owner");
    const { client } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const second = uniqueEmail("second");
    const added = await client.post("/users/me/email-addresses", { email: second });
    const link = new URL(/https?:\/\/\S+verify\?token=\S+/.exec((await latestEmail(second, "email_verification_link")).text)?.[0] ?? "");
    expect((await client.post("/users/me/email-addresses/verify", { token: link.searchParams.get("token") })).status).toBe(200);
    const other = clientApi(publishableKey);
    expect((await other.post("/auth/login", { email, password: STRONG_PASSWORD })).status).toBe(200);

    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    expectProblem(await client.post("/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "a different long passphrase" }), 503, "email_unavailable");
    expectProblem(await client.post(`/users/me/email-addresses/${added.body.id}/primary`), 503, "email_unavailable");
    const third = uniqueEmail("third");
    expectProblem(await client.post("/users/me/email-addresses", { email: third }), 503, "email_unavailable");
    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;

    expect((await other.get("/client")).body.authenticated).toBe(true);
    expect((await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD })).status).toBe(200);
    expect((await client.get("/users/me")).body.email).toBe(email);
    expect(await getDb().select().from(emailAddresses).where(eq(emailAddresses.email, third))).toEqual([]);
  });
});
