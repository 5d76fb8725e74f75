import { HostedShell } from "@/components/hosted/hosted-shell";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { dataExportLinkIsLive } from "@/lib/hosted/link-landings";
import { hostedHref, hostedFlowFromSearch, searchParam } from "@/lib/flows/hosted-flow";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";

// The token in this page's URL must not leak to other sites through the Referer header. Not
// "no-referrer": with it browsers send `Origin: null` on the form post, which the origin check refuses.
export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.dataExport.title, { referrer: "same-origin" });

// GET /account/data-export?id=&token= — where the emailed download link sends a browser; downloading takes a button press (a POST).
export default async function DataExportPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const id = searchParam(search, "id");
  const token = searchParam(search, "token");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding } = context;
  // Looking the link up changes nothing; a dead link is said so before anyone presses the button.
  const live = await dataExportLinkIsLive(context, id, token);
  return (
    <HostedShell context={context} returnTo={hostedHref("/account/data-export", flow, id && token ? { id, token } : {})}>
      <Card level={1} title={t.dataExport.title} lead={live ? <p>{format(t.dataExport.lead, { app: branding.applicationName })}</p> : null}>
        {live && id && token ? (
          // A plain form post to the Client API: the answer is the file itself, so no server action; works without JavaScript.
          <form method="post" action={`/_svc/users/me/data-requests/${id}/download`}>
            <input type="hidden" name="token" value={token} />
            <Button type="submit" block>
              {t.dataExport.submit}
            </Button>
          </form>
        ) : (
          <Alert tone="error">{t.dataExport.deadLink}</Alert>
        )}
      </Card>
    </HostedShell>
  );
}
