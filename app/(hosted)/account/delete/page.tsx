import { ConfirmDeletionForm } from "@/components/hosted/confirm-deletion-form";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, searchParam, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

// The token in this page's URL must not leak to other sites through the Referer header.
export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.deleteConfirm.title, { referrer: "same-origin" });

// GET /account/delete?token=&pk= — the emailed deletion link lands here; deleting takes a button press (a POST).
export default async function ConfirmDeletionPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const token = searchParam(search, "token");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/account/delete", flow, token ? { token } : {})}>
      <Card level={1} title={t.deleteConfirm.title} lead={<p>{format(t.deleteConfirm.lead, { app: branding.applicationName })}</p>}>
        {token ? <ConfirmDeletionForm t={t} flow={flow} token={token} /> : <Alert tone="error">{t.deleteConfirm.missingToken}</Alert>}
      </Card>
    </HostedShell>
  );
}
