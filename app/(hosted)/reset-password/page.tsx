import { HostedShell } from "@/components/hosted/hosted-shell";
import { ResetPasswordForm } from "@/components/hosted/password-reset-forms";
import { Card } from "@/components/ui/card";
import { pendingResetEmail } from "@/lib/hosted/flow-cookies";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, tenantFromSearch } from "@/lib/hosted/tenant";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.reset.title);

// GET /reset-password — the emailed code and a new password; success signs this browser in.
export default async function ResetPasswordPage({ searchParams }: HostedPageProps) {
  const tenant = tenantFromSearch(await searchParams);
  const context = await loadHostedPage(tenant.publishableKey);
  const { t, environment } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/reset-password", tenant)}>
      <Card level={1} title={t.reset.title} lead={<p>{t.reset.lead}</p>}>
        <ResetPasswordForm
          t={t}
          tenant={tenant}
          email={await pendingResetEmail(environment.id)}
          minLength={environment.settings.passwordPolicy.minLength}
        />
      </Card>
    </HostedShell>
  );
}
