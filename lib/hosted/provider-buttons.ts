import { getDb } from "@/db/client";
import { safeRedirect } from "../flows/safe-redirect";
import { listPublicOAuthProviders } from "../oauth/provider-buttons";
import type { PublicOAuthProvider } from "../oauth/provider-schemas";
import type { HostedContext } from "./hosted-context";
import type { HostedFlow } from "../flows/hosted-flow";

/**
 * What the sign-in and sign-up pages need for their provider buttons: the enabled
 * providers in order, and the flow's redirect_url only when the environment may be
 * sent there (authorize refuses any other, and a button must not lead to an error).
 */
export async function providerButtonProps(context: HostedContext, flow: HostedFlow): Promise<{ providers: PublicOAuthProvider[]; redirectUrl: string | null }> {
  const { data } = await listPublicOAuthProviders(getDb(), context.environment.id);
  const accepted = flow.redirectUrl !== null && safeRedirect(flow.redirectUrl, context.environment, context.links).accepted;
  return { providers: data, redirectUrl: accepted ? flow.redirectUrl : null };
}
