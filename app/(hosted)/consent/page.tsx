import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { ConsentForm } from "@/components/hosted/consent-form";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { SignOutForm } from "@/components/hosted/sign-out-form";
import { Card } from "@/components/ui/card";
import { nextStepUrl } from "@/lib/hosted/continue-url";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, tenantFromSearch } from "@/lib/hosted/tenant";
import { sessionState } from "@/lib/sessions/gates";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.consent.title);

// GET /consent — the LEGAL_ACCEPTANCE gate: shown while the session waits for acceptance of the current documents.
export default async function ConsentPage({ searchParams }: HostedPageProps) {
  const tenant = tenantFromSearch(await searchParams);
  const context = await loadHostedPage(tenant.publishableKey);
  const { t, environment, session, branding } = context;
  if (!session) redirect(hostedHref("/sign-in", tenant));
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  if (!state.gates.some((gate) => gate.key === "LEGAL_ACCEPTANCE")) redirect(nextStepUrl(environment, state, tenant));
  const { termsUrl, privacyUrl } = environment.settings.legal;
  return (
    <HostedShell context={context} returnTo={hostedHref("/consent", tenant)}>
      <Card level={1} title={t.consent.title} lead={<p>{format(t.consent.lead, { app: branding.applicationName })}</p>}>
        <ConsentForm t={t} tenant={tenant} termsUrl={termsUrl} privacyUrl={privacyUrl} />
        <SignOutForm tenant={tenant} label={t.common.signOut} />
      </Card>
    </HostedShell>
  );
}
