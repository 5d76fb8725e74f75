import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { CreateOrganizationForm } from "@/components/hosted/organizations/create-organization-form";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedFlowFromSearch, hostedHref } from "@/lib/flows/hosted-flow";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { sessionState } from "@/lib/sessions/gates";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.organizations.create.title);

// GET /organizations/new — create an organization (the signed-in user becomes its owner), then on to its page.
export default async function NewOrganizationPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment, session } = context;
  if (!session) redirect(hostedHref("/sign-in", { ...flow, redirectUrl: "/organizations/new" }));
  const state = await sessionState(getDb(), environment, session.user, session.session.id);
  if (state.status === "PENDING") redirect(nextStepUrl({ ...context, flow }, state));
  return (
    <HostedShell context={context} returnTo={hostedHref("/organizations/new", flow)}>
      <CreateOrganizationForm t={t} flow={flow} enabled={environment.settings.organizations.enabled} />
    </HostedShell>
  );
}
