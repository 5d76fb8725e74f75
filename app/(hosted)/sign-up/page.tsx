import { HostedShell } from "@/components/hosted/hosted-shell";
import { ProviderButtons } from "@/components/hosted/provider-buttons";
import { SignUpForm } from "@/components/hosted/sign-up-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { continueIfSignedIn } from "@/lib/hosted/continue-url";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";
import { providerButtonProps } from "@/lib/hosted/provider-buttons";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.signUp.title);

// GET /sign-up?redirect_url=&pk= — the environment's OAuth providers; name, email, password, and consent / CAPTCHA when the environment asks for them.
export default async function SignUpPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  await continueIfSignedIn({ ...context, flow });
  const { t, branding, environment } = context;
  const buttons = await providerButtonProps(context, flow);
  return (
    <HostedShell context={context} returnTo={hostedHref("/sign-up", flow)}>
      <Card level={1} title={t.signUp.title} lead={<p>{format(t.signUp.lead, { app: branding.applicationName })}</p>}>
        {environment.settings.signUp.enabled ? (
          <>
            <ProviderButtons t={t} flow={flow} {...buttons} />
            <SignUpForm t={t} flow={flow} settings={environment.settings} />
          </>
        ) : (
          <Alert tone="error">{t.errors.signUpClosed}</Alert>
        )}
      </Card>
    </HostedShell>
  );
}
