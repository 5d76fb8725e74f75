import { continueAfterVerificationAction, sendVerificationLinkAction } from "@/lib/hosted/actions/gates";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import styles from "./verify-email-forms.module.css";

/** The email-verification gate: send the link, then continue once it has been opened. */
export function VerifyEmailForms({ t, flow }: { t: Messages; flow: HostedFlow }) {
  return (
    <div className={styles.forms}>
      <ActionForm action={sendVerificationLinkAction} hidden={hostedFlowFields(flow)}>
        <SubmitButton variant="secondary" block>
          {t.verifyEmail.send}
        </SubmitButton>
        <FormStatus />
      </ActionForm>
      <ActionForm action={continueAfterVerificationAction} hidden={hostedFlowFields(flow)}>
        <SubmitButton block>{t.verifyEmail.done}</SubmitButton>
        <FormStatus />
      </ActionForm>
    </div>
  );
}
