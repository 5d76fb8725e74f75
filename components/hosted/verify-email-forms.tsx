import { continueAfterVerificationAction, sendVerificationLinkAction } from "@/lib/hosted/actions/gates";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { tenantFields, type Tenant } from "@/lib/hosted/tenant";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import styles from "./verify-email-forms.module.css";

/** The email-verification gate: send the link, then continue once it has been opened. */
export function VerifyEmailForms({ t, tenant }: { t: Messages; tenant: Tenant }) {
  return (
    <div className={styles.forms}>
      <ActionForm action={sendVerificationLinkAction} hidden={tenantFields(tenant)}>
        <SubmitButton variant="secondary" block>
          {t.verifyEmail.send}
        </SubmitButton>
        <FormStatus />
      </ActionForm>
      <ActionForm action={continueAfterVerificationAction} hidden={tenantFields(tenant)}>
        <SubmitButton block>{t.verifyEmail.done}</SubmitButton>
        <FormStatus />
      </ActionForm>
    </div>
  );
}
