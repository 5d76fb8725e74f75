import { HostedShell } from "@/components/hosted/hosted-shell";
import { ForgotPasswordForm } from "@/components/hosted/password-reset-forms";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, tenantFromSearch } from "@/lib/hosted/tenant";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.forgot.title);

// GET /forgot-password — asks for the address that gets a reset code (same answer whether or not it has an account).
export default async function ForgotPasswordPage({ searchParams }: HostedPageProps) {
  const tenant = tenantFromSearch(await searchParams);
  const context = await loadHostedPage(tenant.publishableKey);
  const { t } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/forgot-password", tenant)}>
      <Card level={1} title={t.forgot.title} lead={<p>{t.forgot.lead}</p>}>
        <ForgotPasswordForm t={t} tenant={tenant} />
      </Card>
    </HostedShell>
  );
}
