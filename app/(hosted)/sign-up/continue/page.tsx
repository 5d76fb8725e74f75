import { HostedShell } from "@/components/hosted/hosted-shell";
import { OAuthConsentForm } from "@/components/hosted/oauth-consent-form";
import styles from "@/components/hosted/oauth-outcome.module.css";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { readSignUpContinuation } from "@/lib/hosted/link-landings";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch, searchParam } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.oauth.continueTitle);

// GET /sign-up/continue?token=&redirect_url=&pk= — the consent page of an OAuth sign-up deferred until the terms are accepted.
export default async function OAuthContinuePage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const token = searchParam(search, "token");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding } = context;
  // Reading the continuation changes nothing: a link preview cannot finish the sign-up.
  // Only the browser that came back from the provider (its cookie) is offered the form.
  const pending = await readSignUpContinuation(context, token);
  return (
    <HostedShell context={context} returnTo={hostedHref("/sign-up/continue", flow, token ? { token } : {})}>
      <Card level={1} title={t.oauth.continueTitle}>
        {pending && token ? (
          <>
            <p>{format(t.oauth.continueLead, { provider: pending.provider.name, app: branding.applicationName })}</p>
            {pending.email ? <p>{format(t.oauth.continueEmail, { email: pending.email })}</p> : null}
            <OAuthConsentForm t={t} flow={flow} token={token} termsUrl={pending.legal.termsUrl} privacyUrl={pending.legal.privacyUrl} />
          </>
        ) : (
          <div className={styles.outcome}>
            <Alert tone="error">{t.oauth.continueDead}</Alert>
            <ButtonLink href={hostedHref("/sign-in", flow)} variant="secondary" block>
              {t.oauth.backToSignIn}
            </ButtonLink>
          </div>
        )}
      </Card>
    </HostedShell>
  );
}
