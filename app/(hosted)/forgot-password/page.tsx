import { HostedShell } from "@/components/hosted/hosted-shell";
import { ForgotPasswordForm } from "@/components/hosted/password-reset-forms";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.forgot.title);

// GET /forgot-password — asks for the address that gets a reset code (same answer whether or not it has an account).
export default async function ForgotPasswordPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/forgot-password", flow)}>
      <Card level={1} title={t.forgot.title} lead={<p>{t.forgot.lead}</p>}>
        <ForgotPasswordForm t={t} flow={flow} />
      </Card>
    </HostedShell>
  );
}
