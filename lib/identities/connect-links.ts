import type { EnvironmentContext } from "../environments/context";
import { hostedHref, type HostedFlow } from "../flows/hosted-flow";
import { PROVIDER_PRESETS, type ProviderType } from "../oauth/provider-presets";
import { isRecentlyVerified } from "../sessions/reverification";
import type { ActiveSession } from "../sessions/resolve-session";

export interface ConnectLink {
  providerId: string;
  name: string;
  href: string;
}

export interface ConnectLinks {
  /**
   * One per provider: `href` starts the link flow, posted by a form (a GET would be
   * refused: lib/oauth/link-flow.ts), or with `reverifyFirst` is the page's
   * "confirm it's you" form, followed as a link.
   */
  links: ConnectLink[];
  /** The links lead to "confirm it's you" first: the session's sign-in is not recent. */
  reverifyFirst: boolean;
}

/** The outcome of a link flow, as the account page is sent back to it. */
export const CONNECTED_PARAM = "connected";

/**
 * The account page's "connect" buttons: plain form posts (no JavaScript) to the OAuth
 * link flow, for the enabled providers the user has not connected yet. The flow
 * ends back on the account page, naming the provider (and `error=` when it
 * failed). Connecting is a sensitive change: without a recent sign-in the links
 * go to the page's "confirm it's you" form first instead of to an answer of 403.
 */
export function connectLinks(
  environment: EnvironmentContext,
  current: ActiveSession,
  flow: HostedFlow,
  providers: { id: string; name: string }[],
  connectedProviderIds: string[],
): ConnectLinks {
  // The pipeline's own rule (an impersonation is never recent), so a link shown as
  // ready is one the sensitive link operation will accept.
  const recent = isRecentlyVerified(environment, current);
  const connected = new Set(connectedProviderIds);
  const links = providers
    .filter((provider) => !connected.has(provider.id))
    .map((provider) => {
      if (!recent) return { providerId: provider.id, name: provider.name, href: `${hostedHref("/account", flow, { reverify: "1" })}#reverify` };
      const query = new URLSearchParams({ redirect_url: hostedHref("/account", flow, { [CONNECTED_PARAM]: provider.id }) });
      // Browser-posted Client API endpoints take the environment from `pk` where the host does not name it.
      if (flow.publishableKey) query.set("pk", flow.publishableKey);
      return { providerId: provider.id, name: provider.name, href: `/_svc/auth/oauth2/${encodeURIComponent(provider.id)}/link?${query}` };
    });
  return { links, reverifyFirst: !recent };
}

/**
 * "Confirm it's you" with a connected provider account, for the reverification
 * form: plain links to the OAuth reverify flow of each enabled OpenID Connect
 * provider the user has connected (only those report a fresh sign-in), ending
 * back on the account page. None for a user with two-step verification, who
 * confirms with the code or a passkey (OAuth is a first factor).
 */
export function reverifyLinks(
  flow: HostedFlow,
  providers: { id: string; name: string; type: ProviderType }[],
  connectedProviderIds: string[],
  hasSecondFactor: boolean,
): ConnectLink[] {
  if (hasSecondFactor) return [];
  const connected = new Set(connectedProviderIds);
  return providers
    .filter((provider) => connected.has(provider.id) && PROVIDER_PRESETS[provider.type].protocol === "oidc")
    .map((provider) => {
      const query = new URLSearchParams({ redirect_url: hostedHref("/account", flow, { reverified: "1" }) });
      if (flow.publishableKey) query.set("pk", flow.publishableKey);
      return { providerId: provider.id, name: provider.name, href: `/_svc/auth/oauth2/${encodeURIComponent(provider.id)}/reverify?${query}` };
    });
}
