import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InvitationLanding } from "@/components/hosted/organizations/invitation-landing";
import { getDb } from "@/db/client";
import { emailAddresses, organizationInvitations, organizations } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/crypto/tokens";
import { messagesFor, type Locale } from "@/lib/hosted/i18n/messages";
import { readInvitationLanding, type InvitationLanding as Landing, type InvitationViewer } from "@/lib/hosted/invitation-landing";
import { ownsVerifiedAddress } from "@/lib/organizations/invitations";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../../helpers/fixtures";

type Env = Awaited<ReturnType<typeof newEnvironment>>;

async function invitation(env: Env, overrides: Partial<typeof organizationInvitations.$inferInsert> = {}) {
  const [org] = await getDb()
    .insert(organizations)
    .values({ environmentId: env.environmentId, name: "Nordlys Research", slug: `nordlys-${Math.random().toString(36).slice(2, 8)}` })
    .returning();
  if (!org) throw new Error("no organization");
  const token = randomToken();
  const ticket = randomToken();
  const email = uniqueEmail("invitee");
  await getDb()
    .insert(organizationInvitations)
    .values({
      environmentId: env.environmentId,
      organizationId: org.id,
      email,
      role: "admin",
      tokenHash: sha256(token),
      ticketHash: sha256(ticket),
      expiresAt: new Date(Date.now() + 86_400_000),
      ...overrides,
    });
  return { token, ticket, email, organizationId: org.id };
}

const PENDING: Landing = {
  status: "pending",
  organizationId: "5d0c7c9e-3a6b-4f0e-9a51-1c2d3e4f5a6b",
  organizationName: "Nordlys Research",
  email: "ada@example.com",
  roleName: "Admin",
  canCreateAccount: true,
};

function render(props: { landing?: Landing | null; viewer?: InvitationViewer; locale?: Locale; token?: string }) {
  return renderToStaticMarkup(
    createElement(InvitationLanding, {
      t: messagesFor(props.locale ?? "en"),
      flow: { publishableKey: "pk_test_x", redirectUrl: null },
      token: props.token ?? "tok-123",
      landing: props.landing === undefined ? PENDING : props.landing,
      viewer: props.viewer ?? { kind: "signedOut" },
      minPasswordLength: 10,
    }),
  ).replaceAll("&amp;", "&");
}

describe("reading an invitation for its landing page", () => {
  it("names the organization, the role's display name and the invited address of a pending invitation", async () => {
    const env = await newEnvironment();
    const { ticket, email, organizationId } = await invitation(env);
    expect(await readInvitationLanding(getDb(), env.environmentId, ticket)).toEqual({
      status: "pending",
      organizationId,
      organizationName: "Nordlys Research",
      email,
      roleName: "Admin",
      canCreateAccount: true,
    });
  });

  it("reads the invitation from the inviter's API token too, but then offers no account (only the mail ticket proves the mailbox)", async () => {
    const env = await newEnvironment();
    const { token } = await invitation(env);
    expect(await readInvitationLanding(getDb(), env.environmentId, token)).toMatchObject({ status: "pending", canCreateAccount: false });
    const legacy = await invitation(env, { ticketHash: null });
    expect(await readInvitationLanding(getDb(), env.environmentId, legacy.token)).toMatchObject({ status: "pending", canCreateAccount: false });
  });

  it("tells expired, revoked and accepted invitations apart", async () => {
    const env = await newEnvironment();
    const expired = await invitation(env, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await invitation(env, { status: "revoked", revokedAt: new Date() });
    const accepted = await invitation(env, { status: "accepted", acceptedAt: new Date() });
    expect((await readInvitationLanding(getDb(), env.environmentId, expired.token))?.status).toBe("expired");
    expect((await readInvitationLanding(getDb(), env.environmentId, revoked.token))?.status).toBe("revoked");
    expect((await readInvitationLanding(getDb(), env.environmentId, accepted.token))?.status).toBe("accepted");
  });

  it("knows no token of another environment, nor an unknown one", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    const { token } = await invitation(env);
    expect(await readInvitationLanding(getDb(), other.environmentId, token)).toBeNull();
    expect(await readInvitationLanding(getDb(), env.environmentId, "not-a-token")).toBeNull();
  });

  it("recognizes the invitee by a verified address of theirs, not by another user's", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail("invitee");
    const invitee = await createUser(env.api, { email, password: STRONG_PASSWORD });
    const someone = await createUser(env.api, { email: uniqueEmail(), password: STRONG_PASSWORD });
    expect(await ownsVerifiedAddress(getDb(), env.environmentId, invitee.id, email)).toBe(true);
    expect(await ownsVerifiedAddress(getDb(), env.environmentId, someone.id, email)).toBe(false);
  });

  it("does not count an unverified address", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail("invitee");
    const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
    await getDb().update(emailAddresses).set({ verifiedAt: null }).where(eq(emailAddresses.userId, user.id));
    expect(await ownsVerifiedAddress(getDb(), env.environmentId, user.id, email)).toBe(false);
  });
});

describe("the invitation landing page", () => {
  it("shows organization, role and address, with a sign-in link back here and the create-account form, to someone signed out", () => {
    const html = render({});
    expect(html).toContain("You are invited to join Nordlys Research as Admin.");
    expect(html).toContain("The invitation is for ada@example.com.");
    expect(html).toContain(`href="/sign-in?pk=pk_test_x&redirect_url=${encodeURIComponent("/invitations/accept?pk=pk_test_x&token=tok-123")}"`);
    expect(html).toContain('name="password"');
    expect(html).toContain('name="token" value="tok-123"');
    expect(html).toContain("Create account and join");
    expect(html).not.toContain("Accept invitation");
  });

  it("offers someone signed out only sign-in when the link is an API token, not the emailed ticket", () => {
    const html = render({ landing: { ...PENDING, canCreateAccount: false } });
    expect(html).toContain("Sign in");
    expect(html).not.toContain('name="password"');
    expect(html).not.toContain("Create account and join");
  });

  it("offers only Accept to the invitee", () => {
    const html = render({ viewer: { kind: "invitee" } });
    expect(html).toContain("Accept invitation");
    expect(html).toContain('name="token" value="tok-123"');
    expect(html).not.toContain('name="password"');
  });

  it("tells another account whom it is signed in as and whom the invitation is for, with a switch-account form that comes back here", () => {
    const html = render({ viewer: { kind: "otherAccount", current: "grace@example.com" } });
    expect(html).toContain("You are signed in as grace@example.com; this invitation is for ada@example.com.");
    expect(html).toContain("Sign out and switch account");
    expect(html).toContain('name="redirect_url" value="/invitations/accept?pk=pk_test_x&token=tok-123"');
    expect(html).not.toContain("Accept invitation");
  });

  it("has its own message for expired, revoked, accepted and unknown invitations, and no form", () => {
    const expired = render({ landing: { ...PENDING, status: "expired" } });
    const revoked = render({ landing: { ...PENDING, status: "revoked" } });
    const accepted = render({ landing: { ...PENDING, status: "accepted" } });
    const unknown = render({ landing: null });
    expect(expired).toContain("Invitation expired");
    expect(revoked).toContain("Invitation withdrawn");
    expect(accepted).toContain("Invitation already accepted");
    expect(unknown).toContain("Invitation not found");
    for (const html of [expired, revoked, accepted, unknown]) expect(html).not.toContain("<form");
  });

  it("speaks Danish", () => {
    const html = render({ locale: "da", viewer: { kind: "otherAccount", current: "grace@example.com" } });
    expect(html).toContain("Du er logget ind som grace@example.com; invitationen er til ada@example.com.");
    expect(html).toContain("Log ud og skift konto");
  });
});
