import { staffSsoSignInAction } from "@/lib/dashboard/actions/staff-sso";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import { Button } from "@/components/ui/button";
import providerStyles from "@/components/hosted/provider-buttons.module.css";

/** "Sign in with staff SSO" above the password form, as the hosted pages show their providers; a plain form post. */
export function StaffSsoButton({ copy }: { copy: DashboardCopy }) {
  return (
    <>
      <form action={staffSsoSignInAction} className={providerStyles.providers}>
        <Button type="submit" variant="secondary" block>
          {copy.t.signIn.withSso}
        </Button>
      </form>
      <p className={providerStyles.separator}>{copy.t.signIn.or}</p>
    </>
  );
}
