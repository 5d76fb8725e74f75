import { ConfirmEmailForm } from "@/components/hosted/confirm-email-form";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { readVerificationLink } from "@/lib/hosted/link-landings";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, searchParam, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

// The token in this page's URL must not leak to other sites through the Referer header.
export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.confirmEmail.title, { referrer: "same-origin" });

// GET /verify-email/confirm?token=&pk= — where the emailed verification link sends a browser; verifying takes a button press (a POST).
export default async function ConfirmEmailPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const token = searchParam(search, "token");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding } = context;
  // Looking the link up changes nothing; a dead link is said so before anyone presses the button.
  const pending = await readVerificationLink(context, token);
  return (
    <HostedShell context={context} returnTo={hostedHref("/verify-email/confirm", flow, token ? { token } : {})}>
      <Card
        level={1}
        title={t.confirmEmail.title}
        lead={pending ? <p>{format(t.confirmEmail.lead, { email: pending.email, app: branding.applicationName, account: pending.account ?? "" })}</p> : null}
      >
        {pending && token ? <ConfirmEmailForm t={t} flow={flow} token={token} /> : <Alert tone="error">{t.confirmEmail.invalidLink}</Alert>}
      </Card>
    </HostedShell>
  );
}
