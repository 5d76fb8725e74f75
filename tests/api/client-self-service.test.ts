import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";
import { ageSignIn, clientApi, latestEmail, signedUpClient } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

function linkIn(text: string, pattern: RegExp): URL {
  const match = pattern.exec(text)?.[0];
  if (!match) throw new Error(`no link in ${text}`);
  return new URL(match);
}

async function openVerificationLink(to: string) {
  const url = linkIn((await latestEmail(to)).text, /https?:\/\/\S+\/_svc\/users\/me\/email-addresses\/verify\?token=\S+/);
  return call("GET", `${url.pathname}${url.search}`, { headers: { host: url.host } });
}

describe("email addresses", () => {
  it("adds, verifies by link, promotes and removes an address", async () => {
    const { publishableKey } = await newEnvironment();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    const { client } = await signedUpClient(publishableKey, first, STRONG_PASSWORD);

    const added = await client.post("/users/me/email-addresses", { email: second });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: expect.any(String), email: second, verified: false, primary: false });
    expect((await client.post(`/users/me/email-addresses/${added.body.id}/primary`)).body.code).toBe("invalid_request");
    // Not verified yet: it cannot sign in.
    expect((await clientApi(publishableKey).post("/auth/login", { email: second, password: STRONG_PASSWORD })).status).toBe(401);

    expect((await client.post(`/users/me/email-addresses/${added.body.id}/resend`)).status).toBe(200);
    expect((await openVerificationLink(second)).body).toEqual({ status: "verified", email: second });
    const promoted = await client.post(`/users/me/email-addresses/${added.body.id}/primary`);
    expect(promoted.body).toEqual({ id: added.body.id, email: second, verified: true, primary: true });
    expect((await client.get("/users/me")).body.email).toBe(second);
    expect((await clientApi(publishableKey).post("/auth/login", { email: second, password: STRONG_PASSWORD })).status).toBe(200);

    const list = await client.get("/users/me/email-addresses");
    const old = list.body.items.find((item: { email: string }) => item.email === first);
    expect(list.body.items).toHaveLength(2);
    expect((await client.delete(`/users/me/email-addresses/${added.body.id}`)).body.code).toBe("invalid_request");
    expect((await client.delete(`/users/me/email-addresses/${old.id}`)).body).toEqual({ status: "removed" });
    expect((await client.get("/users/me/email-addresses")).body.items).toHaveLength(1);
  });

  it("refuses an address another user holds, and duplicates of one's own", async () => {
    const { publishableKey } = await newEnvironment();
    const taken = uniqueEmail();
    await signedUpClient(publishableKey, taken, STRONG_PASSWORD);
    const mine = uniqueEmail();
    const { client } = await signedUpClient(publishableKey, mine, STRONG_PASSWORD);
    const res = await client.post("/users/me/email-addresses", { email: taken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("identifier_exists");
    expect((await client.post("/users/me/email-addresses", { email: mine })).status).toBe(409);
    expect((await client.post("/users/me/email-addresses", { email: "nope" })).status).toBe(400);
    expect((await client.delete("/users/me/email-addresses/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("removal needs a recent sign-in: 403 reverification_required, then /auth/reverify opens the window", async () => {
    const { publishableKey } = await newEnvironment();
    const first = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, first, STRONG_PASSWORD);
    const added = await client.post("/users/me/email-addresses", { email: uniqueEmail() });
    await ageSignIn(session.session.id);
    const refused = await client.delete(`/users/me/email-addresses/${added.body.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("reverification_required");
    expect((await client.post("/auth/reverify", { password: "not my password" })).body.code).toBe("invalid_credentials");
    const reverified = await client.post("/auth/reverify", { password: STRONG_PASSWORD });
    expect(reverified.status).toBe(200);
    expect(new Date(reverified.body.validUntil).getTime()).toBeGreaterThan(Date.now());
    expect((await client.delete(`/users/me/email-addresses/${added.body.id}`)).status).toBe(200);
  });
});

describe("account deletion", () => {
  it("type-to-confirm, emailed one-time link, then soft delete with sessions revoked and the address released", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const wrong = await client.post("/users/me/delete/request", { confirmation: "someone@else.com" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.properties.errors[0].field).toBe("confirmation");

    const requested = await client.post("/users/me/delete/request", { confirmation: email.toUpperCase() });
    expect(requested.body).toEqual({ status: "sent", email });
    expect((await client.get("/client")).body.authenticated).toBe(true);
    const mail = await latestEmail(email);
    expect(mail.template).toBe("account_deletion_link");
    const token = linkIn(mail.text, /https?:\/\/\S+\/account\/delete\?\S+/).searchParams.get("token");

    const confirmed = await client.post("/users/me/delete/confirm", { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ status: "deleted" });
    expect((await client.get("/client")).body.authenticated).toBe(false);
    const user = await api.get(`/users/${session.user.id}`);
    expect(user.body).toMatchObject({ status: "deleted", deletedAt: expect.any(String) });
    expect((await client.post("/users/me/delete/confirm", { token })).body.code).toBe("invalid_code");
    // The address is free again.
    await signedUpClient(publishableKey, email, STRONG_PASSWORD);
  });

  it("requesting deletion needs a recent sign-in", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await ageSignIn(session.session.id);
    const res = await client.post("/users/me/delete/request", { confirmation: email });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("reverification_required");
  });
});

describe("verification link opened in a browser", () => {
  it("verifies and answers 303 to the hosted page instead of raw JSON", async () => {
    const { publishableKey } = await newEnvironment();
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const second = uniqueEmail();
    await client.post("/users/me/email-addresses", { email: second });
    const url = linkIn((await latestEmail(second)).text, /https?:\/\/\S+\/_svc\/users\/me\/email-addresses\/verify\?token=\S+/);
    const opened = await call("GET", `${url.pathname}${url.search}`, { headers: { host: url.host, accept: "text/html,application/xhtml+xml" } });
    expect(opened.status).toBe(303);
    // Item 13: the link came in on the environment's own host, so the page is on it too, with no pk.
    expect(opened.headers.get("location")).toBe(`${url.protocol}//${url.host}/verify-email`);
    const list = await client.get("/users/me/email-addresses");
    expect(list.body.items.find((item: { email: string }) => item.email === second).verified).toBe(true);
    const reopened = await call("GET", `${url.pathname}${url.search}`, { headers: { host: url.host, accept: "text/html" } });
    expect(reopened.status).toBe(303);
  });
});
