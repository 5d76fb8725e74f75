import { Alert } from "@/components/ui/alert";
import { TextLink } from "@/components/ui/text-link";
import { isProduction } from "@/lib/config/runtime";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { ACCOUNT_PATH } from "@/lib/dashboard/operator-session";
import { operatorLacksSecondFactor, operatorSessionUnproven, type OperatorIdentity } from "@/lib/operation/caller";

/**
 * On every signed-in page, for an owner or admin without a second factor: in
 * production, that they can only read until they add one (the rule of
 * operatorOwesSecondFactor); elsewhere, that production will hold them to it. Either
 * way, where to add one. For one who holds a factor but whose session did not prove
 * it (the session that enrolled it), that changes need a sign-in with it. Nothing
 * for anyone else.
 */
export function SecondFactorBanner({ t, operator }: { t: DashboardMessages; operator: OperatorIdentity }) {
  const enforced = isProduction();
  if (operatorSessionUnproven(operator)) {
    return (
      <div data-testid="second-factor-banner">
        <Alert tone={enforced ? "error" : "info"} title={t.factorBanner.signInAgainTitle}>
          <p>{enforced ? t.factorBanner.signInAgainBody : t.factorBanner.signInAgainOutsideProduction}</p>
        </Alert>
      </div>
    );
  }
  if (!operatorLacksSecondFactor(operator)) return null;
  return (
    <div data-testid="second-factor-banner">
      <Alert tone={enforced ? "error" : "info"} title={t.factorBanner.title}>
        <p>
          {enforced ? t.factorBanner.body : t.factorBanner.bodyOutsideProduction} <TextLink href={ACCOUNT_PATH}>{t.factorBanner.link}</TextLink>
        </p>
      </Alert>
    </div>
  );
}
