import { redirect } from "next/navigation";
import { ConsentForm } from "@/components/hosted/consent-form";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { SignOutForm } from "@/components/hosted/sign-out-form";
import { Card } from "@/components/ui/card";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { loadSessionState } from "@/lib/hosted/load-operation";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.consent.title);

// GET /consent — the LEGAL_ACCEPTANCE gate: shown while the session waits for acceptance of the current documents.
export default async function ConsentPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, branding } = context;
  // Signed out: sign-in, the flow going on afterwards. This page is the legal gate's; past it, on to the next step.
  const page = { ...context, flow };
  const { session: state } = await loadSessionState(page);
  if (!state.gates.some((gate) => gate.key === "LEGAL_ACCEPTANCE")) redirect(nextStepUrl(page, state));
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
