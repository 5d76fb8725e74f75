import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CreateOrganizationForm } from "@/components/hosted/organizations/create-organization-form";
import { OrganizationsSection } from "@/components/hosted/organizations/organizations-section";
import { messagesFor, type Locale } from "@/lib/hosted/i18n/messages";

const NORDLYS = { id: "5d0c7c9e-3a6b-4f0e-9a51-1c2d3e4f5a6b", name: "Nordlys Research", role: "admin", roleName: "Admin" };
const FJORD = { id: "6e1d8d0f-4b7c-4f1f-8b62-2d3e4f5a6b7c", name: "Fjord Labs", role: "member", roleName: null };
const FLOW = { publishableKey: "pk_test_x", redirectUrl: null };

function switcher(activeOrganizationId: string | null, organizations = [NORDLYS, FJORD], locale: Locale = "en") {
  return renderToStaticMarkup(
    createElement(OrganizationsSection, { t: messagesFor(locale), flow: FLOW, appName: "Acme", organizations, activeOrganizationId }),
  ).replaceAll("&amp;", "&");
}

describe("the account page's organization switcher", () => {
  it("links each organization to its page and offers 'make active' for every one but the active one, and 'none'", () => {
    const html = switcher(NORDLYS.id);
    expect(html).toContain(`href="/organizations/${NORDLYS.id}?pk=pk_test_x"`);
    expect(html).toContain(`href="/organizations/${FJORD.id}?pk=pk_test_x"`);
    expect(html).toContain(`value="${FJORD.id}" aria-label="Make active: Fjord Labs" name="organizationId"`);
    expect(html).not.toContain(`value="${NORDLYS.id}" aria-label="Make active: Nordlys Research" name="organizationId"`);
    expect(html).toContain('aria-label="Make active: Fjord Labs"');
    expect(html).toContain('value="" name="organizationId"');
    expect(html).toContain("Role: Admin");
    expect(html).toContain("Role: member");
  });

  it("offers no 'none' when nothing is active, nor for an active organization the user has left", () => {
    for (const html of [switcher(null), switcher("7f2e9e1a-5c8d-4a2a-9c73-3e4f5a6b7c8d")]) {
      expect(html).toContain("No active organization");
      expect(html).not.toContain('value=""');
      expect(html).toContain(`value="${NORDLYS.id}" aria-label="Make active: Nordlys Research" name="organizationId"`);
    }
  });

  it("says there are none yet and still links to creating one, in Danish too", () => {
    const html = switcher(null, [], "da");
    expect(html).toContain("Du er endnu ikke medlem af nogen organisation.");
    expect(html).toContain('href="/organizations/new?pk=pk_test_x"');
    expect(html).not.toContain("<form");
  });
});

describe("the create-organization page", () => {
  it("asks for a name", () => {
    const html = renderToStaticMarkup(createElement(CreateOrganizationForm, { t: messagesFor("en"), flow: FLOW, enabled: true }));
    expect(html).toContain('name="name"');
    expect(html).toContain("Create organization");
  });

  it("says organizations are off instead of offering the form", () => {
    const html = renderToStaticMarkup(createElement(CreateOrganizationForm, { t: messagesFor("da"), flow: FLOW, enabled: false }));
    expect(html).not.toContain("<form");
    expect(html).toContain("Organisationer er ikke tilgængelige i denne applikation.");
  });
});
