import { HostedShell } from "@/components/hosted/hosted-shell";
import { CreateOrganizationForm } from "@/components/hosted/organizations/create-organization-form";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { loadOperation } from "@/lib/hosted/load-operation";
import { hostedFlowFromSearch, hostedHref } from "@/lib/flows/hosted-flow";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { getMeEndpoint } from "@/lib/users/me-endpoints";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.organizations.create.title);

// GET /organizations/new — create an organization (the signed-in user becomes its owner), then on to its page.
export default async function NewOrganizationPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, environment } = context;
  // The form is for an ACTIVE session, as the operation it posts to: signed out, sign-in then back here; held by a gate, that gate's page.
  await loadOperation({ ...context, flow, returnTo: "/organizations/new" }, getMeEndpoint);
  return (
    <HostedShell context={context} returnTo={hostedHref("/organizations/new", flow)}>
      <CreateOrganizationForm t={t} flow={flow} enabled={environment.settings.organizations.enabled} />
    </HostedShell>
  );
}
