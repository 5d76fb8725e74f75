import { HostedShell } from "@/components/hosted/hosted-shell";
import { InvitationLanding } from "@/components/hosted/organizations/invitation-landing";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedFlowFromSearch, hostedHref, searchParam } from "@/lib/flows/hosted-flow";
import { loadInvitationPage } from "@/lib/hosted/invitation-landing";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";

// The invitation secret in this page's URL (and copied into the sign-in redirect_url) must not leak to
// other sites through the Referer header. Not "no-referrer": with it browsers send `Origin: null` on the
// page's form posts, which the origin check refuses.
export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.organizations.invitation.pageTitle, { referrer: "same-origin" });

// GET /invitations/accept?token= — the invitation email's link: accept, sign in, create an account from the invitation, or switch account.
export default async function InvitationAcceptPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment } = context;
  const token = searchParam(search, "token") ?? "";
  const { landing, viewer } = await loadInvitationPage({ ...context, flow }, token);
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
