import type { EnvironmentContext } from "../environments/context";
import { environmentUrl, linkBase } from "../environments/environment-links";
import type { GateKey } from "../sessions/gates";

/**
 * What every hosted link and form carries along: the publishable key (local
 * development, where the Host does not identify the environment) and the
 * requested redirect_url, which is only ever honoured through safeRedirect.
 */
export interface HostedFlow {
  publishableKey: string | null;
  redirectUrl: string | null;
}

export type SearchParams = Record<string, string | string[] | undefined>;

/** Long enough for any real URL; longer values are dropped instead of echoed into every link. */
const MAX_PARAM_LENGTH = 2048;

function clean(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" && first.length > 0 && first.length <= MAX_PARAM_LENGTH ? first : null;
}

export function searchParam(search: SearchParams, name: string): string | null {
  return clean(search[name]);
}

export function hostedFlowFromSearch(search: SearchParams): HostedFlow {
  return { publishableKey: clean(search.pk), redirectUrl: clean(search.redirect_url) };
}

export function hostedFlowFromForm(form: FormData): HostedFlow {
  return { publishableKey: clean(form.get("pk")), redirectUrl: clean(form.get("redirect_url")) };
}

/** The hidden inputs that keep the flow across a form post. */
export function hostedFlowFields(flow: HostedFlow): Record<string, string> {
  const fields: Record<string, string> = {};
  if (flow.publishableKey) fields.pk = flow.publishableKey;
  if (flow.redirectUrl) fields.redirect_url = flow.redirectUrl;
  return fields;
}

/** A same-host path to a hosted page, keeping pk and redirect_url. */
export function hostedHref(path: string, flow: HostedFlow, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...hostedFlowFields(flow), ...extra }).toString();
  return query ? `${path}?${query}` : path;
}

/** The hosted page where a PENDING session clears each gate. */
export const GATE_PAGES: Record<GateKey, string> = {
  LEGAL_ACCEPTANCE: "/consent",
  EMAIL_VERIFICATION: "/verify-email",
  MFA_ENROLLMENT: "/mfa-enrollment",
};

/**
 * The absolute URL of a gate's page for a request that arrived on `host`: on the
 * environment's frontend host when it is one (where the session cookie lives), else
 * on PUBLIC_URL with `pk`.
 */
export function gatePageUrl(environment: EnvironmentContext, host: string | null, gate: GateKey): string {
  return environmentUrl(linkBase(environment, host), GATE_PAGES[gate]);
}
