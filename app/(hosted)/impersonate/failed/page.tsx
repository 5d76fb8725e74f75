import { HostedShell } from "@/components/hosted/hosted-shell";
import styles from "@/components/hosted/oauth-outcome.module.css";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { hostedFlowFromSearch, hostedHref, searchParam } from "@/lib/flows/hosted-flow";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { LANDING_FAILURES, type LandingFailure } from "@/lib/hosted/impersonation-landing";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.impersonation.landingFailedTitle);

// GET /impersonate/failed?error=&pk= — where the dashboard's impersonation lands when its token was refused.
export default async function ImpersonationFailedPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const code = searchParam(search, "error");
  // Only known codes are explained (the URL is anyone's to write); nothing from it is echoed.
  const failure: LandingFailure = code && (LANDING_FAILURES as readonly string[]).includes(code) ? (code as LandingFailure) : "generic";
  const context = await loadHostedPage(flow.publishableKey);
  const { t, session } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/impersonate/failed", flow, { error: failure })}>
      <Card level={1} title={t.impersonation.landingFailedTitle}>
        <div className={styles.outcome}>
          <Alert tone="error" role="alert">
            {t.impersonation.landingFailures[failure]}
          </Alert>
          <ButtonLink href={hostedHref(session ? "/account" : "/sign-in", flow)} variant="secondary" block>
            {session ? t.oauth.backToAccount : t.impersonation.landingHome}
          </ButtonLink>
        </div>
      </Card>
    </HostedShell>
  );
}
