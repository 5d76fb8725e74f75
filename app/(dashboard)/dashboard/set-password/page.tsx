import type { Metadata } from "next";
import { AuthShell } from "@/components/dashboard/auth-shell";
import { SetPasswordForm } from "@/components/dashboard/set-password-form";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { dashboardCopy } from "@/lib/dashboard/i18n/messages";
import { loadSetPasswordPage } from "@/lib/dashboard/set-password-page";
import { format } from "@/lib/hosted/i18n/messages";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await dashboardCopy();
  // The URL holds a one-time token: no Referer may carry it to another site. Not "no-referrer":
  // with it browsers send `Origin: null` on the form post (no JavaScript), which the origin check refuses.
  return { title: `${t.setPassword.title} · Gatehouse`, robots: { index: false }, referrer: "same-origin" };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/set-password?token= — the one-time link from `operator create`: choose a password, then be signed in.
export default async function SetPasswordPage({ searchParams }: Props) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const copy = await dashboardCopy();
  const { t } = copy;
  const link = token ? await loadSetPasswordPage(token) : null;
  return (
    <AuthShell copy={copy} returnTo={token ? `/dashboard/set-password?token=${encodeURIComponent(token)}` : "/dashboard/set-password"}>
      {link ? (
        <Card level={1} title={t.setPassword.title} lead={<p>{format(t.setPassword.lead, { email: link.email })}</p>}>
          <SetPasswordForm copy={copy} token={token} email={link.email} minLength={link.minLength} />
        </Card>
      ) : (
        <Card level={1} title={t.setPassword.invalidTitle} lead={<p>{t.setPassword.invalidBody}</p>}>
          <ButtonLink href="/dashboard/sign-in" block>
            {t.setPassword.toSignIn}
          </ButtonLink>
        </Card>
      )}
    </AuthShell>
  );
}
