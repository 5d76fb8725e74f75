import { signOutAction } from "@/lib/hosted/actions/sign-out";
import { hostedFlowFields, type HostedFlow } from "@/lib/flows/hosted-flow";
import { ActionForm } from "@/components/ui/action-form";
import type { ButtonVariant } from "@/components/ui/button";
import { FormActions } from "@/components/ui/form-actions";
import { SubmitButton } from "@/components/ui/submit-button";
import styles from "./sign-out-form.module.css";

/** A one-button form that signs this browser out (a POST: a link would let any page sign people out). */
export function SignOutForm({ flow, label, variant = "quiet" }: { flow: HostedFlow; label: string; variant?: ButtonVariant }) {
  return (
    <ActionForm action={signOutAction} hidden={hostedFlowFields(flow)} className={styles.form}>
      <FormActions>
        <SubmitButton variant={variant}>{label}</SubmitButton>
      </FormActions>
    </ActionForm>
  );
}
