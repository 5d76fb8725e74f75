import type { EnvironmentContext } from "../environments/context";
import type { LinkBase } from "../environments/environment-links";
import type { SessionState } from "../sessions/gates";
import { GATE_PAGES, hostedHref, type HostedFlow } from "./hosted-flow";
import { safeRedirect } from "./safe-redirect";

/** Only what identifies the target: a refused URL's query may carry tokens or personal data. */
function describeForLog(requested: string): string {
  try {
    const url = new URL(requested);
    return `${url.protocol}${url.host ? `//${url.host}` : ""}${url.pathname}`.slice(0, 200);
  } catch {
    // Not an absolute URL: a path-like value; keep what precedes any query or fragment.
    return `(relative) ${requested.split(/[?#]/)[0] ?? ""}`.slice(0, 200);
  }
}

/** A hosted flow in its environment, with the host its links stay on. */
export interface FlowTarget {
  environment: EnvironmentContext;
  flow: HostedFlow;
  links: LinkBase;
}

/**
 * Where the flow ends: the requested redirect_url when safeRedirect accepts it,
 * else the environment's fallback, on the host the flow runs on (through PUBLIC_URL
 * with this environment's pk, which safeRedirect adds). Refusals are
 * logged, since they are either a misconfigured allowed-origins list or someone
 * probing for an open redirect.
 */
export function finalRedirectUrl({ environment, flow, links }: FlowTarget): string {
  const decision = safeRedirect(flow.redirectUrl, environment, links);
  if (!decision.accepted && flow.redirectUrl) {
    console.warn(`hosted: refused redirect_url for environment ${environment.id}: ${describeForLog(flow.redirectUrl)}`);
  }
  return decision.url;
}

/** After sign-in, sign-up or a cleared gate: the next open gate's page, else the final redirect. */
export function nextStepUrl(target: FlowTarget, state: SessionState): string {
  const gate = state.currentGate?.key;
  return gate ? hostedHref(GATE_PAGES[gate], target.flow) : finalRedirectUrl(target);
}
