import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/dashboard/auth-shell";
import { OperatorSignInForm } from "@/components/dashboard/sign-in-form";
import { StaffSsoButton } from "@/components/dashboard/staff-sso-button";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { currentOperator, dashboardReturnPath } from "@/lib/dashboard/operator-session";
import { staffSsoSettings } from "@/lib/dashboard/staff-sso";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  return { title: `${t.signIn.title} · Gatehouse`, robots: { index: false } };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/sign-in?next= — operators sign in with email and password (next-auth), then go on to `next` (a dashboard page); someone signed in goes there at once.
export default async function DashboardSignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const next = dashboardReturnPath(typeof params.next === "string" ? params.next : null);
  if (await currentOperator()) redirect(next);
  const copy = await dashboardCopy();
  const { t } = copy;
  const notice = params.signedOut
    ? t.signIn.signedOut
    : params.passwordSet
      ? t.signIn.passwordSet
      : params.ended
        ? t.signIn.sessionEnded
        : params.reauth
          ? t.signIn.reauth
          : null;
  // next-auth's error page is this one: AccessDenied is the signIn callback's refusal, anything else a failed flow.
  const ssoError = params.error === "AccessDenied" ? t.signIn.ssoRefused : params.error ? t.signIn.ssoFailed : null;
  return (
    <AuthShell copy={copy} returnTo={next === "/dashboard" ? "/dashboard/sign-in" : `/dashboard/sign-in?next=${encodeURIComponent(next)}`}>
      {notice ? (
        <Alert tone={params.signedOut || params.passwordSet ? "success" : "info"} role="status">
          <p>{notice}</p>
        </Alert>
      ) : null}
      {ssoError ? (
        <Alert tone="error" role="alert">
          <p>{ssoError}</p>
        </Alert>
      ) : null}
      <Card level={1} title={t.signIn.title} lead={<p>{t.signIn.lead}</p>}>
        {staffSsoSettings() ? <StaffSsoButton copy={copy} /> : null}
        <OperatorSignInForm copy={copy} next={next === "/dashboard" ? undefined : next} />
      </Card>
    </AuthShell>
  );
}
