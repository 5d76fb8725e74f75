import { HostedShell } from "@/components/hosted/hosted-shell";
import { SignOutForm } from "@/components/hosted/sign-out-form";
import { VerifyEmailForms } from "@/components/hosted/verify-email-forms";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { loadSessionState } from "@/lib/hosted/load-operation";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.verifyEmail.title);

// GET /verify-email — the EMAIL_VERIFICATION gate: email a link, open it, continue.
export default async function VerifyEmailPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t } = context;
  // Signed out: sign-in, the flow going on afterwards.
  const page = { ...context, flow };
  const { user, session: state } = await loadSessionState(page);
  const open = state.gates.some((gate) => gate.key === "EMAIL_VERIFICATION");
  return (
    <HostedShell context={context} returnTo={hostedHref("/verify-email", flow)}>
      <Card
        level={1}
        title={t.verifyEmail.title}
        lead={open ? <p>{format(t.verifyEmail.lead, { email: user.email ?? "" })}</p> : null}
      >
        {open ? (
          <VerifyEmailForms t={t} flow={flow} />
        ) : (
          // Already verified (say, the link was opened in another tab): say so and offer the way on.
          <Alert tone="success">
            <p>
              {t.verifyEmail.verified} <TextLink href={nextStepUrl(page, state)}>{t.common.continue}</TextLink>
            </p>
          </Alert>
        )}
        <SignOutForm flow={flow} label={t.common.signOut} />
      </Card>
    </HostedShell>
  );
}
