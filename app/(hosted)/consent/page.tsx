import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { ConsentForm } from "@/components/hosted/consent-form";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { SignOutForm } from "@/components/hosted/sign-out-form";
import { Card } from "@/components/ui/card";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";
import { sessionState } from "@/lib/sessions/gates";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.consent.title);

// GET /consent — the LEGAL_ACCEPTANCE gate: shown while the session waits for acceptance of the current documents.
export default async function ConsentPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, session, branding } = context;
  if (!session) redirect(hostedHref("/sign-in", flow));
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  if (!state.gates.some((gate) => gate.key === "LEGAL_ACCEPTANCE")) redirect(nextStepUrl({ ...context, flow }, state));
  const { termsUrl, privacyUrl } = environment.settings.legal;
  return (
    <HostedShell context={context} returnTo={hostedHref("/consent", flow)}>
      <Card level={1} title={t.consent.title} lead={<p>{format(t.consent.lead, { app: branding.applicationName })}</p>}>
        <ConsentForm t={t} flow={flow} termsUrl={termsUrl} privacyUrl={privacyUrl} />
        <SignOutForm flow={flow} label={t.common.signOut} />
      </Card>
    </HostedShell>
  );
}
