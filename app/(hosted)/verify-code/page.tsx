import { HostedShell } from "@/components/hosted/hosted-shell";
import { VerifyCodeForm } from "@/components/hosted/verify-code-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { pendingSignUp, resendCooldown } from "@/lib/hosted/flow-cookies";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.verifyCode.title);

// GET /verify-code — the sign-up's emailed 6-digit code (the pending sign-up is in an HttpOnly cookie).
export default async function VerifyCodePage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t } = context;
  const pending = await pendingSignUp(context.environment.id);
  return (
    <HostedShell context={context} returnTo={hostedHref("/verify-code", flow)}>
      <Card level={1} title={t.verifyCode.title} lead={pending ? <p>{format(t.verifyCode.lead, { email: pending.email })}</p> : null}>
        {pending ? (
          <VerifyCodeForm t={t} flow={flow} cooldownSeconds={resendCooldown(pending)} />
        ) : (
          <Alert tone="error">
            <p>
              {t.verifyCode.expired} <TextLink href={hostedHref("/sign-up", flow)}>{t.verifyCode.startOver}</TextLink>
            </p>
          </Alert>
        )}
      </Card>
    </HostedShell>
  );
}
