import { HostedShell } from "@/components/hosted/hosted-shell";
import { ProviderButtons } from "@/components/hosted/provider-buttons";
import { SignInForm } from "@/components/hosted/sign-in-form";
import { Card } from "@/components/ui/card";
import { continueIfSignedIn } from "@/lib/hosted/continue-url";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/flows/hosted-flow";
import { providerButtonProps } from "@/lib/hosted/provider-buttons";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.signIn.title);

// GET /sign-in?redirect_url=&pk= — the environment's OAuth providers, email and password; someone already signed in goes straight on.
export default async function SignInPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  await continueIfSignedIn({ ...context, flow });
  const { t, branding } = context;
  const buttons = await providerButtonProps(context, flow);
  return (
    <HostedShell context={context} returnTo={hostedHref("/sign-in", flow)}>
      <Card level={1} title={t.signIn.title} lead={<p>{format(t.signIn.lead, { app: branding.applicationName })}</p>}>
        <ProviderButtons t={t} flow={flow} {...buttons} />
        <SignInForm t={t} flow={flow} />
      </Card>
    </HostedShell>
  );
}
