import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailAddresses } from "@/db/schema";
import { call, expectProblem } from "../helpers/api";
import { ageSignIn, clientApi, emailCount, latestEmail, signedUpClient, type ClientApi } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

function linkIn(text: string, pattern: RegExp): URL {
  const match = pattern.exec(text)?.[0];
  if (!match) throw new Error(`no link in ${text}`);
  return new URL(match);
}

const VERIFY_LINK = /https?:\/\/\S+\/_svc\/users\/me\/email-addresses\/verify\?token=\S+/;

/** The newest verification link emailed to an address. */
async function verificationLink(to: string): Promise<URL> {
  return linkIn((await latestEmail(to, "email_verification_link")).text, VERIFY_LINK);
}

/** Opens the link as a mail client, a browser or a link scanner does: a GET on the link's own host. */
function openLink(url: URL, accept = "*/*") {
  return call("GET", `${url.pathname}${url.search}`, { headers: { host: url.host, accept } });
}

/** Confirms the link as its page's button does: POST {token}, no session (the token is the credential). */
function confirmLink(publishableKey: string, url: URL) {
  return clientApi(publishableKey).post("/users/me/email-addresses/verify", { token: url.searchParams.get("token") });
}

async function addresses(client: ClientApi): Promise<{ id: string; email: string; verified: boolean; primary: boolean }[]> {
  return (await client.get("/users/me/email-addresses")).body.items;
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
    expect((await confirmLink(publishableKey, await verificationLink(second))).body).toEqual({ status: "verified", email: second });
    const promoted = await client.post(`/users/me/email-addresses/${added.body.id}/primary`);
    expect(promoted.body).toEqual({ id: added.body.id, email: second, verified: true, primary: true });
    expect((await client.get("/users/me")).body.email).toBe(second);
    expect((await clientApi(publishableKey).post("/auth/login", { email: second, password: STRONG_PASSWORD })).status).toBe(200);

    const list = await addresses(client);
    const old = list.find((item) => item.email === first);
    expect(list).toHaveLength(2);
    expect((await client.delete(`/users/me/email-addresses/${added.body.id}`)).body.code).toBe("invalid_request");
    expect((await client.delete(`/users/me/email-addresses/${old?.id}`)).body).toEqual({ status: "removed" });
    expect(await addresses(client)).toHaveLength(1);
  });

  it("refuses duplicates of one's own addresses, malformed addresses and unknown ids", async () => {
    const { publishableKey } = await newEnvironment();
    const mine = uniqueEmail();
    const { client } = await signedUpClient(publishableKey, mine, STRONG_PASSWORD);
    expectProblem(await client.post("/users/me/email-addresses", { email: mine }), 409, "identifier_exists");
    const pending = uniqueEmail();
    expect((await client.post("/users/me/email-addresses", { email: pending })).status).toBe(200);
    expectProblem(await client.post("/users/me/email-addresses", { email: pending.toUpperCase() }), 409, "identifier_exists");
    expect((await client.post("/users/me/email-addresses", { email: "nope" })).status).toBe(400);
    expect((await client.delete("/users/me/email-addresses/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("regression: adding an address another account holds answers exactly like a free one; its link then fails cleanly", async () => {
    const { publishableKey, api } = await newEnvironment();
    const taken = uniqueEmail("taken");
    const { client: owner } = await signedUpClient(publishableKey, taken, STRONG_PASSWORD);
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);

    const free = await client.post("/users/me/email-addresses", { email: uniqueEmail("free") });
    const probe = await client.post("/users/me/email-addresses", { email: taken });
    // Same status, same fields, same values but the id and the address: nothing tells the two apart.
    expect(probe.status).toBe(200);
    expect(probe.status).toBe(free.status);
    expect({ ...probe.body, id: "", email: "" }).toEqual({ ...free.body, id: "", email: "" });
    expect(probe.headers.get("content-type")).toBe(free.headers.get("content-type"));

    // The address's owner got an ordinary verification link; using it adds nothing.
    const link = await verificationLink(taken);
    expect((await openLink(link)).status).toBe(200);
    expectProblem(await confirmLink(publishableKey, link), 409, "identifier_exists");
    expect((await addresses(client)).find((item) => item.email === taken)?.verified).toBe(false);
    expect((await addresses(owner)).find((item) => item.email === taken)).toMatchObject({ verified: true, primary: true });
    const signIn = await clientApi(publishableKey).post("/auth/login", { email: taken, password: STRONG_PASSWORD });
    expect(signIn.body.user.id).toBe((await owner.get("/users/me")).body.id);
    expect((await api.post("/users/search", { email: taken })).body.items).toHaveLength(1);
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

describe("regression: session-holder takeover through the address list", () => {
  it("a stale session can neither add an address nor promote one (403 reverification_required, nothing changes, nothing is sent)", async () => {
    const { publishableKey } = await newEnvironment();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    const { client, session } = await signedUpClient(publishableKey, first, STRONG_PASSWORD);
    const added = await client.post("/users/me/email-addresses", { email: second });
    await confirmLink(publishableKey, await verificationLink(second));
    await ageSignIn(session.session.id);

    const attacker = uniqueEmail("attacker");
    expectProblem(await client.post("/users/me/email-addresses", { email: attacker }), 403, "reverification_required");
    expect(await emailCount(attacker)).toBe(0);
    expectProblem(await client.post(`/users/me/email-addresses/${added.body.id}/primary`), 403, "reverification_required");
    expect((await client.get("/users/me")).body.email).toBe(first);
    expect((await addresses(client)).map((item) => item.email).sort()).toEqual([first, second].sort());

    expect((await client.post("/auth/reverify", { password: STRONG_PASSWORD })).status).toBe(200);
    expect((await client.post("/users/me/email-addresses", { email: attacker })).status).toBe(200);
    expect((await client.post(`/users/me/email-addresses/${added.body.id}/primary`)).status).toBe(200);
  });

  it("adding an address tells the primary address (email_added) and sends the link to the new one", async () => {
    const { publishableKey } = await newEnvironment();
    const primary = uniqueEmail("primary");
    const { client } = await signedUpClient(publishableKey, primary, STRONG_PASSWORD);
    const added = uniqueEmail("added");
    expect((await client.post("/users/me/email-addresses", { email: added })).status).toBe(200);
    // Sent within the operation, not after it: no polling.
    const notice = await latestEmail(primary);
    expect(notice.template).toBe("email_added");
    expect(notice.text).toContain(added);
    expect((await latestEmail(added)).template).toBe("email_verification_link");
  });

  it("promoting an address tells the old primary and the new one (primary_email_changed)", async () => {
    const { publishableKey } = await newEnvironment();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    const { client } = await signedUpClient(publishableKey, first, STRONG_PASSWORD);
    const added = await client.post("/users/me/email-addresses", { email: second });
    await confirmLink(publishableKey, await verificationLink(second));
    expect((await client.post(`/users/me/email-addresses/${added.body.id}/primary`)).status).toBe(200);
    for (const to of [first, second]) {
      const notice = await latestEmail(to);
      expect(notice.template, to).toBe("primary_email_changed");
      expect(notice.text).toContain(second);
    }
    // Promoting the address that already is primary changes nothing and tells nobody.
    const before = await emailCount(first);
    expect((await client.post(`/users/me/email-addresses/${added.body.id}/primary`)).status).toBe(200);
    expect(await emailCount(first)).toBe(before);
  });
});

describe("regression: address squatting", () => {
  it("an unverified address of one user blocks nobody else: sign-up, Server API create, another add", async () => {
    const { publishableKey, api } = await newEnvironment();
    const { client: squatter } = await signedUpClient(publishableKey, uniqueEmail("squatter"), STRONG_PASSWORD);
    const victim = uniqueEmail("victim");
    expect((await squatter.post("/users/me/email-addresses", { email: victim })).status).toBe(200);

    // The real owner signs up with a code (not the "you already have an account" email) and gets in.
    const { session } = await signedUpClient(publishableKey, victim, STRONG_PASSWORD);
    expect(session.user.email).toBe(victim);
    const login = await clientApi(publishableKey).post("/auth/login", { email: victim, password: STRONG_PASSWORD });
    expect(login.body.user.id).toBe(session.user.id);

    const other = uniqueEmail("other");
    expect((await squatter.post("/users/me/email-addresses", { email: other })).status).toBe(200);
    expect((await api.post("/users", { email: other })).status).toBe(201);
    const third = uniqueEmail("third");
    expect((await squatter.post("/users/me/email-addresses", { email: third })).status).toBe(200);
    const { client: rival } = await signedUpClient(publishableKey, uniqueEmail("rival"), STRONG_PASSWORD);
    expect((await rival.post("/users/me/email-addresses", { email: third })).status).toBe(200);
  });

  it("of two users adding one address, whoever proves the mailbox first holds it; the other link fails cleanly", async () => {
    const { publishableKey } = await newEnvironment();
    const { client: early } = await signedUpClient(publishableKey, uniqueEmail("early"), STRONG_PASSWORD);
    const { client: late } = await signedUpClient(publishableKey, uniqueEmail("late"), STRONG_PASSWORD);
    const shared = uniqueEmail("shared");
    await early.post("/users/me/email-addresses", { email: shared });
    const earlyLink = await verificationLink(shared);
    await late.post("/users/me/email-addresses", { email: shared });
    const lateLink = await verificationLink(shared);

    expect((await confirmLink(publishableKey, lateLink)).body).toEqual({ status: "verified", email: shared });
    expectProblem(await confirmLink(publishableKey, earlyLink), 409, "identifier_exists");
    expect((await addresses(late)).find((item) => item.email === shared)?.verified).toBe(true);
    expect((await addresses(early)).find((item) => item.email === shared)?.verified).toBe(false);
    const login = await clientApi(publishableKey).post("/auth/login", { email: shared, password: STRONG_PASSWORD });
    expect(login.body.user.id).toBe((await late.get("/users/me")).body.id);
  });

  it("an unverified address expires with its link (24 hours): it leaves the list and its link no longer verifies", async () => {
    const { publishableKey } = await newEnvironment();
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const pending = uniqueEmail("pending");
    const added = await client.post("/users/me/email-addresses", { email: pending });
    const link = await verificationLink(pending);
    const row = (await getDb().select().from(emailAddresses).where(eq(emailAddresses.id, added.body.id)))[0];
    expect(row?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(row?.expiresAt?.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    await getDb().update(emailAddresses).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailAddresses.id, added.body.id));
    expect((await addresses(client)).map((item) => item.email)).not.toContain(pending);
    expectProblem(await confirmLink(publishableKey, link), 400, "invalid_code");
    expect((await client.post(`/users/me/email-addresses/${added.body.id}/resend`)).status).toBe(404);
    // Adding it again starts afresh.
    const again = await client.post("/users/me/email-addresses", { email: pending });
    expect(again.status).toBe(200);
    const rows = await getDb().select().from(emailAddresses).where(eq(emailAddresses.email, pending));
    expect(rows.map((r) => r.id)).toEqual([again.body.id]);
    expect((await confirmLink(publishableKey, await verificationLink(pending))).body.status).toBe("verified");
  });
});

describe("regression: a link pre-fetch (mail scanner) verifies nothing", () => {
  it("GET of the emailed link changes nothing, for code and for browsers; POST {token} verifies, once", async () => {
    const { publishableKey } = await newEnvironment();
    const owner = uniqueEmail();
    const { client } = await signedUpClient(publishableKey, owner, STRONG_PASSWORD);
    const second = uniqueEmail();
    await client.post("/users/me/email-addresses", { email: second });
    const url = await verificationLink(second);

    const peeked = await openLink(url);
    expect(peeked.status).toBe(200);
    // Review finding: the page names the account the address would join (masked), not "your account".
    expect(peeked.body).toEqual({ status: "pending", email: second, account: `${owner[0]}•••@example.com` });
    // A browser is sent to the hosted page that asks for the button press, on the same host.
    const browsed = await openLink(url, "text/html,application/xhtml+xml");
    expect(browsed.status).toBe(303);
    const location = new URL(browsed.headers.get("location") ?? "", `http://${url.host}`);
    expect(location.host).toBe(url.host);
    expect(location.pathname).toBe("/verify-email/confirm");
    expect(location.searchParams.get("token")).toBe(url.searchParams.get("token"));
    // Item 13: on the environment's own host the Host names the environment; pk is for PUBLIC_URL only.
    expect(location.searchParams.has("pk")).toBe(false);
    expect((await addresses(client)).find((item) => item.email === second)?.verified).toBe(false);

    expect((await confirmLink(publishableKey, url)).body).toEqual({ status: "verified", email: second });
    expect((await addresses(client)).find((item) => item.email === second)?.verified).toBe(true);
    expectProblem(await confirmLink(publishableKey, url), 400, "invalid_code");
    expectProblem(await openLink(url), 400, "invalid_code");
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
