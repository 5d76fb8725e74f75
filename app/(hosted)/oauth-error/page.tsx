import { HostedShell } from "@/components/hosted/hosted-shell";
import styles from "@/components/hosted/oauth-outcome.module.css";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch, searchParam } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.oauth.errorTitle);

/** The explanation of a failed flow's code; an unknown code (the URL is anyone's to write) gets the generic one, never echoed. */
function explanation(t: Messages, code: string | null): string {
  const known: Record<string, string | undefined> = t.oauth.errors;
  // Own keys only: "constructor" or "__proto__" in the URL must not reach the page.
  return (code && Object.hasOwn(known, code) ? known[code] : undefined) ?? t.oauth.errors.generic;
}

// GET /oauth-error?error=&pk= — where a failed OAuth sign-in or connection ends when the app gave no redirect_url.
export default async function OAuthErrorPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const code = searchParam(search, "error");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, session } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/oauth-error", flow, code ? { error: code } : {})}>
      <Card level={1} title={t.oauth.errorTitle}>
        <div className={styles.outcome}>
          <Alert tone="error" role="alert">
            {explanation(t, code)}
          </Alert>
          <ButtonLink href={hostedHref(session ? "/account" : "/sign-in", flow)} variant="secondary" block>
            {session ? t.oauth.backToAccount : t.oauth.backToSignIn}
          </ButtonLink>
        </div>
      </Card>
    </HostedShell>
  );
}
