import { eq } from "drizzle-orm";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { oneTimeCodes } from "@/db/schema";
import { clientApi, codeIn, latestEmail } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/** A local port with nothing listening: connections are refused at once. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
});
