import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { InvitationLanding, type Viewer } from "@/components/hosted/organizations/invitation-landing";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedFlowFromSearch, hostedHref, searchParam } from "@/lib/flows/hosted-flow";
import { readInvitationLanding } from "@/lib/hosted/invitation-landing";
import { ownsVerifiedAddress } from "@/lib/organizations/invitations";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { sessionState } from "@/lib/sessions/gates";

// The invitation secret in this page's URL (and copied into the sign-in redirect_url) must not leak to
// other sites through the Referer header. Not "no-referrer": with it browsers send `Origin: null` on the
// page's form posts, which the origin check refuses.
export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.organizations.invitation.pageTitle, { referrer: "same-origin" });

// GET /invitations/accept?token= — the invitation email's link: accept, sign in, create an account from the invitation, or switch account.
export default async function InvitationAcceptPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, session } = context;
  const token = searchParam(search, "token") ?? "";
  const landing = token ? await readInvitationLanding(getDb(), environment.id, token) : null;
  let viewer: Viewer = { kind: "signedOut" };
  if (session && landing?.status === "pending") {
    const state = await sessionState(getDb(), environment, session.user, session.session.id);
    if (state.status === "PENDING") redirect(nextStepUrl({ ...context, flow }, state));
    viewer = (await ownsVerifiedAddress(getDb(), environment.id, session.user.id, landing.email))
      ? { kind: "invitee" }
      : { kind: "otherAccount", current: session.user.email ?? session.user.id };
  }
  return (
    <HostedShell context={context} returnTo={hostedHref("/invitations/accept", flow, token ? { token } : {})}>
      <InvitationLanding
        t={t}
        flow={flow}
        token={token}
        landing={landing}
        viewer={viewer}
        minPasswordLength={environment.settings.passwordPolicy.minLength}
      />
    </HostedShell>
  );
}
