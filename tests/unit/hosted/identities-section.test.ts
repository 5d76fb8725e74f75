import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IdentitiesSection, type LinkOutcome } from "@/components/hosted/account/identities-section";
import { getDb } from "@/db/client";
import { findEnvironment, type EnvironmentContext } from "@/lib/environments/context";
import { messagesFor, type Locale } from "@/lib/hosted/i18n/messages";
import type { HostedFlow } from "@/lib/flows/hosted-flow";
import { connectLinks, reverifyLinks, type ConnectLinks } from "@/lib/identities/connect-links";
import type { IdentityView } from "@/lib/identities/schemas";
import type { ActiveSession } from "@/lib/sessions/resolve-session";
import { getUserOrThrow } from "@/lib/users/get-user";
import { createUser, newEnvironment, openSession } from "../../helpers/fixtures";

const PROVIDERS = [
  { id: "github", name: "GitHub" },
  { id: "acme-sso", name: "Acme SSO" },
];

async function signedIn(): Promise<{ environment: EnvironmentContext; current: ActiveSession }> {
  const env = await newEnvironment();
  const user = await createUser(env.api, {});
  const { session, token } = await openSession(env.environmentId, user.id);
  const environment = await findEnvironment(getDb(), env.environmentId);
  if (!environment) throw new Error("no environment");
  return { environment, current: { session, token, presentedAs: "cookie", user: await getUserOrThrow(getDb(), env.environmentId, user.id) } };
}

function identity(overrides: Partial<IdentityView> = {}): IdentityView {
  return {
    id: "5d0c7c9e-3a6b-4f0e-9a51-1c2d3e4f5a6b",
    provider: "github",
    providerName: "GitHub",
    email: "ada@gh.example",
    emailVerified: true,
    username: "ada",
    createdAt: "2026-11-20T08:00:00.000Z",
    lastSignInAt: null,
    ...overrides,
  };
}

function render(props: { locale?: Locale; identities?: IdentityView[]; connect?: ConnectLinks; outcome?: LinkOutcome | null; flow?: HostedFlow }) {
  const locale = props.locale ?? "en";
  return renderToStaticMarkup(
    createElement(IdentitiesSection, {
      t: messagesFor(locale),
      flow: props.flow ?? { publishableKey: null, redirectUrl: null },
      dates: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }),
      identities: props.identities ?? [],
      connect: props.connect ?? { links: [], reverifyFirst: false },
      outcome: props.outcome ?? null,
    }),
  );
}

const decode = (html: string) => html.replaceAll("&amp;", "&");

describe("the account page's connect links", () => {
  it("lead to the OAuth link flow for each provider not yet connected, coming back to the account page named for it", async () => {
    const { environment, current } = await signedIn();
    const { links, reverifyFirst } = connectLinks(environment, current, { publishableKey: null, redirectUrl: null }, PROVIDERS, ["github"]);
    expect(reverifyFirst).toBe(false);
    expect(links).toEqual([
      { providerId: "acme-sso", name: "Acme SSO", href: "/_svc/auth/oauth2/acme-sso/link?redirect_url=%2Faccount%3Fconnected%3Dacme-sso" },
    ]);
  });

  it("carry pk and the app's redirect_url where the host does not name the environment", async () => {
    const { environment, current } = await signedIn();
    const flow = { publishableKey: environment.publishableKey, redirectUrl: "https://app.example/settings" };
    const [link] = connectLinks(environment, current, flow, PROVIDERS, []).links;
    const url = new URL(link?.href ?? "", "http://localhost");
    expect(url.pathname).toBe("/_svc/auth/oauth2/github/link");
    expect(url.searchParams.get("pk")).toBe(environment.publishableKey);
    const back = new URL(url.searchParams.get("redirect_url") ?? "", "http://localhost");
    expect(back.pathname).toBe("/account");
    expect(Object.fromEntries(back.searchParams)).toEqual({ pk: environment.publishableKey, redirect_url: "https://app.example/settings", connected: "github" });
  });

  it("without a recent sign-in, lead to the page's 'confirm it's you' form instead of a 403", async () => {
    const { environment, current } = await signedIn();
    const stale = { ...current, session: { ...current.session, lastVerifiedAt: new Date(Date.now() - 3600_000) } };
    const result = connectLinks(environment, stale, { publishableKey: null, redirectUrl: null }, PROVIDERS, []);
    expect(result.reverifyFirst).toBe(true);
    expect(result.links.map((link) => link.href)).toEqual(["/account?reverify=1#reverify", "/account?reverify=1#reverify"]);
  });
});

describe("the Connected accounts section", () => {
  it("lists each account with a disconnect button of its own in one plain form (works without JavaScript)", () => {
    const html = decode(
      render({
        identities: [identity(), identity({ id: "0a0b0c0d-0000-4000-8000-000000000001", provider: "acme-sso", providerName: "Acme SSO", email: null, username: null, lastSignInAt: "2026-11-21T09:00:00.000Z" })],
        flow: { publishableKey: "pk_test_abc", redirectUrl: null },
      }),
    );
    expect(html).toContain("Connected accounts");
    expect(html).toContain("GitHub (ada@gh.example)");
    expect(html).toContain("Acme SSO");
    expect(html).toContain('value="remove:5d0c7c9e-3a6b-4f0e-9a51-1c2d3e4f5a6b"');
    expect(html).toContain('value="remove:0a0b0c0d-0000-4000-8000-000000000001"');
    expect(html).toContain('aria-label="Disconnect: GitHub (ada@gh.example)"');
    expect(html).toContain("Not used to sign in yet");
    expect(html).toContain("Last sign-in Nov 21, 2026");
    expect(html).toMatch(/<form[^>]*>/);
    expect(html).toContain('name="pk" value="pk_test_abc"');
  });

  it("regression (issue 16, item 9): says when nothing is connected, and connects with a plain form post (works without JavaScript), not a link a GET would follow", () => {
    const html = decode(render({ connect: { links: [{ providerId: "github", name: "GitHub", href: "/_svc/auth/oauth2/github/link?redirect_url=%2Faccount" }], reverifyFirst: false } }));
    expect(html).toContain("No accounts are connected.");
    expect(html).toMatch(/<form action="\/_svc\/auth\/oauth2\/github\/link\?redirect_url=%2Faccount" method="post"><button type="submit"[^>]*>Connect GitHub<\/button><\/form>/);
    expect(html).not.toContain('href="/_svc/auth/oauth2/github/link');
    expect(html).not.toContain("confirm it");
  });

  it("asks to confirm it's you first when the links lead there, as plain links", () => {
    const html = render({ connect: { links: [{ providerId: "github", name: "GitHub", href: "/account?reverify=1#reverify" }], reverifyFirst: true } });
    expect(html).toContain("To connect an account, confirm it&#x27;s you first.");
    expect(html).toMatch(/<a href="\/account\?reverify=1#reverify"[^>]*>Connect GitHub<\/a>/);
  });

  it("tells how a link flow ended: connected, already another user's, cancelled, failed", () => {
    expect(render({ outcome: { providerName: "GitHub", error: null } })).toContain("GitHub is connected.");
    expect(render({ outcome: { providerName: "GitHub", error: "identity_already_linked" } })).toContain("already connected to another user");
    expect(render({ outcome: { providerName: "GitHub", error: "access_denied" } })).toContain("The connection was cancelled.");
    expect(render({ outcome: { providerName: null, error: "oauth_state_invalid" } })).toContain("could not be connected");
    // The error code from the query string is never echoed into the page.
    expect(render({ outcome: { providerName: null, error: "<b>alert(1)</b>" } })).not.toContain("alert(1)");
  });

  it("speaks Danish", () => {
    const html = render({ locale: "da", identities: [identity()], outcome: { providerName: "GitHub", error: null } });
    expect(html).toContain("Forbundne konti");
    expect(html).toContain("Fjern forbindelse");
    expect(html).toContain("GitHub er forbundet.");
  });
});

describe("reverifyLinks (confirm it's you with a connected provider account)", () => {
  const flow: HostedFlow = { publishableKey: "pk_test_abc", redirectUrl: null };

  const OIDC_AND_GITHUB = [
    { id: "github", name: "GitHub", type: "github" as const },
    { id: "acme-sso", name: "Acme SSO", type: "oidc" as const },
  ];

  it("links to the reverify flow of each connected OpenID Connect provider (not GitHub: no auth_time), back to the account page, with pk", () => {
    const links = reverifyLinks(flow, OIDC_AND_GITHUB, ["acme-sso", "github"], false);
    expect(links.map((link) => link.providerId)).toEqual(["acme-sso"]);
    const href = new URL(links[0]?.href ?? "", "https://auth.example.com");
    expect(href.pathname).toBe("/_svc/auth/oauth2/acme-sso/reverify");
    expect(href.searchParams.get("pk")).toBe("pk_test_abc");
    expect(href.searchParams.get("redirect_url")).toContain("reverified=1");
  });

  it("offers none to a user with two-step verification (OAuth is a first factor only)", () => {
    expect(reverifyLinks(flow, OIDC_AND_GITHUB, ["github", "acme-sso"], true)).toEqual([]);
  });
});
