import { AuthLinks } from "@/components/hosted/auth-links";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { PasskeyCeremony } from "@/components/hosted/mfa/passkey-ceremony";
import { SecondFactorForm } from "@/components/hosted/second-factor-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { TextLink } from "@/components/ui/text-link";
import { passkeySecondFactorAction, passkeySecondFactorOptionsAction } from "@/lib/hosted/actions/passkeys";
import { continueIfSignedIn } from "@/lib/hosted/continue-url";
import { pendingMfaFlow } from "@/lib/hosted/flow-cookies";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { hostedFlowFields, hostedFlowFromSearch, hostedHref, searchParam } from "@/lib/flows/hosted-flow";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.secondFactor.title);

// GET /second-factor?method=recovery — the second factor of a sign-in: authenticator code, recovery code or passkey (the mfaToken is in an HttpOnly cookie).
export default async function SecondFactorPage({ searchParams }: HostedPageProps) {
  const search = await searchParams;
  const flow = hostedFlowFromSearch(search);
  const context = await loadHostedPage(flow.publishableKey);
  const { t } = context;
  const pending = await pendingMfaFlow(context.environment.id, "second_factor");
  if (!pending) await continueIfSignedIn({ ...context, flow });
  const copy = t.secondFactor;
  const factors = pending?.factors ?? [];
  const method = searchParam(search, "method") === "recovery" && factors.includes("recovery_code") ? "recovery" : factors.includes("totp") ? "totp" : "passkey";
  const lead = { totp: copy.totpLead, recovery: copy.recoveryLead, passkey: copy.passkeyLead }[method];
  return (
    <HostedShell context={context} returnTo={hostedHref("/second-factor", flow, method === "recovery" ? { method } : {})}>
      <Card level={1} title={copy.title} lead={pending ? <p>{lead}</p> : null}>
        {pending ? (
          <>
            {method === "passkey" ? null : <SecondFactorForm key={method} t={t} flow={flow} method={method} />}
            {factors.includes("passkey") ? (
              <PasskeyCeremony
                kind="authenticate"
                options={passkeySecondFactorOptionsAction}
                verify={passkeySecondFactorAction}
                hidden={hostedFlowFields(flow)}
                label={copy.usePasskey}
                labels={t.passkey}
                variant={method === "passkey" ? "primary" : "secondary"}
                block
                separator={method === "passkey" ? undefined : t.signIn.or}
                explainWithoutScript={method === "passkey"}
              />
            ) : null}
            <AuthLinks>
              {method === "totp" && factors.includes("recovery_code") ? (
                <p>
                  <TextLink href={hostedHref("/second-factor", flow, { method: "recovery" })}>{copy.useRecovery}</TextLink>
                </p>
              ) : null}
              {method === "recovery" ? (
                <p>
                  <TextLink href={hostedHref("/second-factor", flow)}>{copy.useTotp}</TextLink>
                </p>
              ) : null}
              <p>
                <TextLink href={hostedHref("/sign-in", flow)}>{copy.signInAgain}</TextLink>
              </p>
            </AuthLinks>
          </>
        ) : (
          <Alert tone="error">
            <p>
              {copy.expired} <TextLink href={hostedHref("/sign-in", flow)}>{copy.signInAgain}</TextLink>
            </p>
          </Alert>
        )}
      </Card>
    </HostedShell>
  );
}
