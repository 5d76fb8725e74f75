import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  assignableRoles,
  canManageMember,
  InvitationsSection,
  LeaveSection,
  MembersSection,
  type Caller,
  type MemberItem,
} from "@/components/hosted/organizations/organization-sections";
import { SettingsSection } from "@/components/hosted/organizations/organization-settings-section";
import { messagesFor, type Locale } from "@/lib/hosted/i18n/messages";
import { DEFAULT_ROLES } from "@/lib/organizations/roles";

const ORG = "5d0c7c9e-3a6b-4f0e-9a51-1c2d3e4f5a6b";
const FLOW = { publishableKey: "pk_test_x", redirectUrl: null };
const ids = { owner: "00000000-0000-4000-8000-000000000001", admin: "00000000-0000-4000-8000-000000000002", member: "00000000-0000-4000-8000-000000000003" };
const MEMBERS: MemberItem[] = [
  { userId: ids.owner, name: "Ada Lovelace", email: "ada@example.com", role: "owner", roleName: "Owner" },
  { userId: ids.admin, name: "Grace Hopper", email: "grace@example.com", role: "admin", roleName: "Admin" },
  { userId: ids.member, name: null, email: "alan@example.com", role: "member", roleName: "Member" },
];
const MANAGE = ["org:members:manage", "org:invitations:manage", "org:settings:manage"];
const owner: Caller = { userId: ids.owner, role: "owner", permissions: MANAGE };
const admin: Caller = { userId: ids.admin, role: "admin", permissions: MANAGE };
const member: Caller = { userId: ids.member, role: "member", permissions: [] };

function members(caller: Caller, locale: Locale = "en") {
  return renderToStaticMarkup(
    createElement(MembersSection, {
      t: messagesFor(locale),
      flow: FLOW,
      organizationId: ORG,
      caller,
      roles: DEFAULT_ROLES,
      members: MEMBERS,
      query: "",
      nextHref: null,
      firstHref: null,
    }),
  );
}

function invitations(caller: Caller, locale: Locale = "en") {
  return renderToStaticMarkup(
    createElement(InvitationsSection, {
      t: messagesFor(locale),
      flow: FLOW,
      organizationId: ORG,
      caller,
      roles: DEFAULT_ROLES,
      invitations: [
        { id: "10000000-0000-4000-8000-000000000001", email: "new@example.com", role: "member", expiresAt: "2026-12-01T08:00:00.000Z" },
        { id: "10000000-0000-4000-8000-000000000002", email: "boss@example.com", role: "owner", expiresAt: "2026-12-01T08:00:00.000Z" },
      ],
      dates: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }),
    }),
  );
}

const roleControl = (userId: string) => `value="role:${userId}"`;
const removeControl = (userId: string) => `value="remove:${userId}"`;

describe("who may change whom", () => {
  it("only an owner hands out or changes the owner role; nobody manages themselves here; a member manages nobody", () => {
    expect(assignableRoles(owner, DEFAULT_ROLES).map((role) => role.key)).toEqual(["owner", "admin", "member"]);
    expect(assignableRoles(admin, DEFAULT_ROLES).map((role) => role.key)).toEqual(["admin", "member"]);
    expect(canManageMember(owner, MEMBERS[1]!, DEFAULT_ROLES)).toBe(true);
    expect(canManageMember(owner, MEMBERS[0]!, DEFAULT_ROLES)).toBe(false);
    expect(canManageMember(admin, MEMBERS[0]!, DEFAULT_ROLES)).toBe(false);
    expect(canManageMember(admin, MEMBERS[2]!, DEFAULT_ROLES)).toBe(true);
    expect(canManageMember(member, MEMBERS[1]!, DEFAULT_ROLES)).toBe(false);
    expect(canManageMember({ userId: ids.member, role: "billing", permissions: ["invoices:read"] }, MEMBERS[1]!, DEFAULT_ROLES)).toBe(false);
  });

  it("a member manager below admin offers and touches only roles within its own permissions", () => {
    const hr = { userId: ids.member, role: "hr", permissions: ["org:members:manage"] };
    const roles = [...DEFAULT_ROLES, { key: "hr", name: "People", permissions: ["org:members:manage"] }];
    expect(assignableRoles(hr, roles).map((role) => role.key)).toEqual(["member", "hr"]);
    expect(canManageMember(hr, { userId: ids.admin, role: "admin" }, roles)).toBe(false);
    expect(canManageMember(hr, { userId: ids.owner, role: "member" }, roles)).toBe(true);
  });
});

describe("the organization page's members", () => {
  it("gives an owner role change and remove for every other member, with the owner role among the choices", () => {
    const html = members(owner);
    expect(html).toContain(roleControl(ids.admin));
    expect(html).toContain(removeControl(ids.member));
    expect(html).not.toContain(roleControl(ids.owner));
    expect(html).toContain('<option value="owner">Owner</option>');
    expect(html).toContain('aria-label="Remove Grace Hopper from the organization"');
    expect(html).toContain(`name="organizationId" value="${ORG}"`);
  });

  it("gives an admin no control over the owner and no owner role to hand out", () => {
    const html = members(admin);
    expect(html).not.toContain(roleControl(ids.owner));
    expect(html).not.toContain(removeControl(ids.owner));
    expect(html).toContain(roleControl(ids.member));
    expect(html).not.toContain('<option value="owner">');
  });

  it("gives a plain member the list only, labelled in Danish too", () => {
    const html = members(member, "da");
    expect(html).not.toContain('value="role:');
    expect(html).not.toContain('value="remove:');
    expect(html).toContain("Grace Hopper");
    expect(html).toContain("alan@example.com");
    expect(html).toContain("Dig");
  });

  it("searches with a plain GET form that keeps the publishable key", () => {
    const html = members(member);
    expect(html).toMatch(/<form role="search"[^>]* method="get">/);
    expect(html).toContain('name="query"');
    expect(html).toContain('name="pk" value="pk_test_x"');
  });
});

describe("the organization page's invitations", () => {
  it("offers an owner the invite form with every role and resend/revoke on every invitation", () => {
    const html = invitations(owner);
    expect(html).toContain('name="email"');
    expect(html).toContain('<option value="owner">Owner</option>');
    expect(html).toContain('value="resend:10000000-0000-4000-8000-000000000002"');
    expect(html).toContain('value="revoke:10000000-0000-4000-8000-000000000001"');
    expect(html).toContain('aria-label="Revoke the invitation to new@example.com"');
  });

  it("leaves an owner's invitation alone for an admin", () => {
    const html = invitations(admin);
    expect(html).not.toContain('<option value="owner">');
    expect(html).toContain('value="resend:10000000-0000-4000-8000-000000000001"');
    expect(html).not.toContain('value="resend:10000000-0000-4000-8000-000000000002"');
    expect(html).not.toContain('value="revoke:10000000-0000-4000-8000-000000000002"');
  });

  it("speaks Danish", () => {
    expect(invitations(owner, "da")).toContain("Inviter folk via e-mail. Et link virker i 7 dage fra seneste afsendelse.");
  });
});

describe("leaving", () => {
  it("posts the caller's own id for the organization", () => {
    const html = renderToStaticMarkup(createElement(LeaveSection, { t: messagesFor("en"), flow: FLOW, organization: { id: ORG, name: "Nordlys" }, caller: member }));
    expect(html).toContain(`name="userId" value="${ids.member}"`);
    expect(html).toContain("Leave organization");
  });
});

describe("settings", () => {
  const settings = (locale: Locale, canDelete = true) =>
    renderToStaticMarkup(
      createElement(SettingsSection, {
        t: messagesFor(locale),
        flow: FLOW,
        appName: "Acme Notes",
        organization: { id: ORG, name: "Nordlys", slug: "nordlys", logoUrl: null },
        canDelete,
      }),
    );

  it("offers deletion only to an owner", () => {
    const html = settings("en", false);
    expect(html).toContain('name="slug" value="nordlys"');
    expect(html).not.toContain("Delete organization");
    expect(html).not.toContain('name="confirmation"');
  });

  it("prefills name, slug and an empty logo URL, and asks for the slug to delete", () => {
    const html = settings("en");
    expect(html).toContain('name="name" value="Nordlys"');
    expect(html).toContain('name="slug" value="nordlys"');
    expect(html).toMatch(/inputMode="url"[^>]* name="logoUrl" value=""/);
    expect(html).toContain("To confirm, type the organization&#x27;s slug: nordlys");
    expect(html).toContain(`name="organizationId" value="${ORG}"`);
  });

  it("speaks Danish", () => {
    const html = settings("da");
    expect(html).toContain("Indstillinger");
    expect(html).toContain("Skriv organisationens slug for at bekræfte: nordlys");
    expect(html).toContain("Slet organisationen");
  });
});
