import { HostedShell } from "@/components/hosted/hosted-shell";
import { ResetPasswordForm } from "@/components/hosted/password-reset-forms";
import { Card } from "@/components/ui/card";
import { pendingResetEmail } from "@/lib/hosted/flow-cookies";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.reset.title);

// GET /reset-password — the emailed code and a new password; success signs this browser in.
export default async function ResetPasswordPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/reset-password", flow)}>
      <Card level={1} title={t.reset.title} lead={<p>{t.reset.lead}</p>}>
        <ResetPasswordForm
          t={t}
          flow={flow}
          email={await pendingResetEmail(environment.id)}
          minLength={environment.settings.passwordPolicy.minLength}
        />
      </Card>
    </HostedShell>
  );
}
