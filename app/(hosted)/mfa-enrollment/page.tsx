import { redirect } from "next/navigation";
import { AuthLinks } from "@/components/hosted/auth-links";
import { HostedShell } from "@/components/hosted/hosted-shell";
import { recoveryCodesFile, totpSetupLabels } from "@/components/hosted/mfa/setup-labels";
import { TotpSetup } from "@/components/hosted/mfa/totp-setup";
import { SignOutForm } from "@/components/hosted/sign-out-form";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { FormActions } from "@/components/ui/form-actions";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextLink } from "@/components/ui/text-link";
import { mfaEnrollmentAction } from "@/lib/hosted/actions/mfa-enrollment";
import { nextStepUrl } from "@/lib/flows/flow-target";
import { pendingMfaFlow } from "@/lib/hosted/flow-cookies";
import { loadHostedPage } from "@/lib/hosted/hosted-context";
import { acceptedSession, loadOperation, type HostedPage } from "@/lib/hosted/load-operation";
import { hostedFlowFields, hostedFlowFromSearch, hostedHref } from "@/lib/flows/hosted-flow";
import { format } from "@/lib/hosted/i18n/messages";
import { hostedMetadata, type HostedPageProps } from "@/lib/hosted/page-metadata";
import { bootProbeEndpoint } from "@/lib/auth/endpoints";
import { isRecentlyVerified } from "@/lib/sessions/reverification";

export const generateMetadata = (props: HostedPageProps) => hostedMetadata(props, (t) => t.mfaEnrollment.title);

type Stage =
  /** A sign-in that answered needs_mfa_enrollment: its mfaToken is in the flow cookie, no session yet. */
  | { kind: "sign_in" }
  /** A session held by the MFA_ENROLLMENT gate, recent enough for the enrollment operations. */
  | { kind: "gate" }
  /** Held by the gate, but the enrollment operations need a recent sign-in, and a PENDING session cannot reverify: sign in again. */
  | { kind: "stale" }
  /** Just enrolled: the page stays on the recovery codes until the person moves on. */
  | { kind: "enrolled"; continueUrl: string }
  | { kind: "expired" };

async function stageOf(page: HostedPage): Promise<Stage> {
  const { environment, flow } = page;
  if (await pendingMfaFlow(environment.id, "enrollment")) return { kind: "sign_in" };
  const enrolled = Boolean(await pendingMfaFlow(environment.id, "enrolled"));
  // The session's state through the boot probe, which answers a PENDING session too.
  const signedIn = (await loadOperation(page, bootProbeEndpoint)).user;
  // Rendered right after confirming, the page still sees the request's old cookies (no session
  // yet for a sign-in); the codes come from the action's answer, so this link is only the fallback.
  if (!signedIn) return enrolled ? { kind: "enrolled", continueUrl: hostedHref("/sign-in", flow) } : { kind: "expired" };
  const state = signedIn.session;
  if (state.gates.some((gate) => gate.key === "MFA_ENROLLMENT")) {
    return isRecentlyVerified(environment, acceptedSession(page)) ? { kind: "gate" } : { kind: "stale" };
  }
  const continueUrl = nextStepUrl(page, state);
  if (enrolled) return { kind: "enrolled", continueUrl };
  redirect(continueUrl);
}

// GET /mfa-enrollment — the environment requires two-step verification: set up an authenticator app during sign-in, or to clear the MFA_ENROLLMENT gate.
export default async function MfaEnrollmentPage({ searchParams }: HostedPageProps) {
  const flow = hostedFlowFromSearch(await searchParams);
  const context = await loadHostedPage(flow.publishableKey);
  const { t, branding, session } = context;
  const copy = t.mfaEnrollment;
  const stage = await stageOf({ ...context, flow });
  const signInAgain = <TextLink href={hostedHref("/sign-in", flow)}>{copy.signInAgain}</TextLink>;
  const idle =
    stage.kind === "enrolled" ? (
      <>
        <p>{copy.done}</p>
        <FormActions>
          <ButtonLink href={stage.continueUrl}>{t.common.continue}</ButtonLink>
        </FormActions>
      </>
    ) : (
      <SubmitButton name="intent" value="start" block>
        {copy.start}
      </SubmitButton>
    );
  const settingUp = stage.kind === "sign_in" || stage.kind === "gate" || stage.kind === "enrolled";
  return (
    <HostedShell context={context} returnTo={hostedHref("/mfa-enrollment", flow)}>
      <Card level={1} title={copy.title} lead={stage.kind === "expired" ? null : <p>{format(copy.lead, { app: branding.applicationName })}</p>}>
        {stage.kind === "expired" ? (
          <Alert tone="error">
            <p>
              {copy.expired} {signInAgain}
            </p>
          </Alert>
        ) : null}
        {stage.kind === "stale" ? <Alert tone="info">{copy.stale}</Alert> : null}
        {/* Always this one slot: the codes shown after confirming survive the page re-rendering as "enrolled". */}
        {settingUp ? (
          <TotpSetup
            action={mfaEnrollmentAction}
            hidden={hostedFlowFields(flow)}
            labels={totpSetupLabels(t, branding.applicationName)}
            file={recoveryCodesFile(t, branding.applicationName, session?.user.email ?? null)}
            idle={idle}
            headingLevel={2}
            aria-label={copy.title}
          />
        ) : null}
        {session && stage.kind !== "enrolled" ? (
          <SignOutForm flow={flow} label={stage.kind === "stale" ? copy.signInAgain : t.common.signOut} variant={stage.kind === "stale" ? "primary" : "quiet"} />
        ) : stage.kind === "sign_in" ? (
          // Five wrong codes end the sign-in's challenge: the way back to the start.
          <AuthLinks>
            <p>{signInAgain}</p>
          </AuthLinks>
        ) : null}
      </Card>
    </HostedShell>
  );
}
