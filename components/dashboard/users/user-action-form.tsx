import type { ReactNode } from "react";
import { ActionForm } from "@/components/ui/action-form";
import type { ButtonVariant } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import type { FormAction } from "@/lib/hosted/form-state";
import { ResultToast } from "../result-toast";

interface Props {
  action: FormAction;
  environmentId: string;
  userId: string;
  /** More hidden inputs (a session's or identity's id). */
  hidden?: Record<string, string>;
  submit: string;
  /** The button's accessible name when its text alone is ambiguous in a list ("Revoke" → which session). */
  submitLabel?: string;
  variant?: ButtonVariant;
  /** Fields above the button (a confirmation, a reason). */
  children?: ReactNode;
  "aria-label"?: string;
}

/**
 * One of a user's page forms: hidden env and user id, optional fields, the button;
 * its success as a toast, its error in place (the operation's own refusal).
 */
export function UserActionForm({ action, environmentId, userId, hidden = {}, submit, submitLabel, variant = "secondary", children, ...rest }: Props) {
  return (
    <ActionForm action={action} hidden={{ env: environmentId, userId, ...hidden }} aria-label={rest["aria-label"]}>
      {children}
      <FormStatus errorsOnly />
      <ResultToast />
      <div>
        <SubmitButton variant={variant} aria-label={submitLabel}>
          {submit}
        </SubmitButton>
      </div>
    </ActionForm>
  );
}
