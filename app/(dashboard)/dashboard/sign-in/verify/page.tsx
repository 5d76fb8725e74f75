import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/dashboard/auth-shell";
import { OperatorSecondFactorForm, type SecondStepMethod } from "@/components/dashboard/second-factor-form";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { pendingSecondStep } from "@/lib/dashboard/auth-second-step";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { currentOperator } from "@/lib/dashboard/operator-session";

export async function generateMetadata(): Promise<Metadata> {
  const { shared } = await dashboardCopy();
  return { title: `${shared.secondFactor.title} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/sign-in/verify?method=recovery — the second step of an operator's sign-in: authenticator code, recovery code or passkey (the mfaToken is in an HttpOnly cookie).
export default async function DashboardSecondStepPage({ searchParams }: Props) {
  if (await currentOperator()) redirect("/dashboard");
  const params = await searchParams;
  const copy = await dashboardCopy();
  const { t, shared } = copy;
  const pending = await pendingSecondStep();
  const factors = pending?.factors ?? [];
  const method: SecondStepMethod =
    params.method === "recovery" && factors.includes("recovery_code") ? "recovery" : factors.includes("totp") ? "totp" : "passkey";
  const lead = { totp: t.secondStep.lead, recovery: t.secondStep.recoveryLead, passkey: t.secondStep.passkeyLead }[method];
  return (
    <AuthShell copy={copy} returnTo={method === "recovery" ? "/dashboard/sign-in/verify?method=recovery" : "/dashboard/sign-in/verify"}>
      <Card level={1} title={shared.secondFactor.title} lead={pending ? <p>{lead}</p> : null}>
        {pending ? (
          <OperatorSecondFactorForm copy={copy} pending={pending} method={method} />
        ) : (
          <>
            <Alert tone="error">
              <p>{shared.secondFactor.expired}</p>
            </Alert>
            <ButtonLink href="/dashboard/sign-in" block>
              {shared.secondFactor.signInAgain}
            </ButtonLink>
          </>
        )}
      </Card>
    </AuthShell>
  );
}
