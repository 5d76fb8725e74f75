import { getDb } from "@/db/client";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { OAuthConsentForm } from "@/components/hosted/oauth-consent-form";
import styles from "@/components/hosted/oauth-outcome.module.css";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { AppError } from "@/lib/errors";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { requestContextOf } from "@/lib/http/request-context";
import { requestIdFor } from "@/lib/http/request-id";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch, searchParam } from "@/lib/flows/hosted-flow";
import { describeContinuation, type ContinuationView } from "@/lib/oauth/signup-continuation";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.oauth.continueTitle);

// GET /sign-up/continue?token=&redirect_url=&pk= — the consent page of an OAuth sign-up deferred until the terms are accepted.
export default async function OAuthContinuePage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const token = searchParam(search, "token");
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding, environment } = context;
  // Reading the continuation changes nothing: a link preview cannot finish the sign-up.
  // Only the browser that came back from the provider (its cookie) is offered the form.
  const browser = requestContextOf(context.request, requestIdFor(context.request));
  const pending: ContinuationView | null = token
    ? await describeContinuation(getDb(), environment, token, browser).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "invalid_code") return null;
        throw error;
      })
    : null;
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
