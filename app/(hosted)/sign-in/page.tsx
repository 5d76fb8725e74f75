import { redirect } from "next/navigation";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { SignInForm } from "@/components/hosted/sign-in-form";
import { Card } from "@/components/ui/card";
import { continueUrlForSession } from "@/lib/hosted/continue-url";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { hostedHref, hostedFlowFromSearch } from "@/lib/hosted/hosted-flow";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.signIn.title);

// GET /sign-in?redirect_url=&pk= — email and password; someone already signed in goes straight on.
export default async function SignInPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  if (context.session) redirect(await continueUrlForSession({ ...context, flow }, context.session));
  const { t, branding } = context;
  return (
    <HostedShell context={context} returnTo={hostedHref("/sign-in", flow)}>
      <Card level={1} title={t.signIn.title} lead={<p>{format(t.signIn.lead, { app: branding.applicationName })}</p>}>
        <SignInForm t={t} flow={flow} />
      </Card>
    </HostedShell>
  );
}
