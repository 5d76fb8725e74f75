import type { FormState } from "../hosted/form-state";
import { formText } from "../hosted/form-state";

/** The input name of a type-to-confirm field (components/dashboard/type-to-confirm-field.tsx). */
export const CONFIRMATION_FIELD = "confirmation";

/**
 * A destructive dashboard action's own check, before it runs its operation: the
 * operator typed `expected` (an environment's name, a user's address) exactly, so a
 * stray click or a form replayed for another row deletes nothing. Returns the form's
 * error state when they did not, else null. The check is the server's: the field's
 * hint in the page is only the question.
 */
export function typedConfirmationError(form: FormData, expected: string, message: string): FormState | null {
  const typed = formText(form, CONFIRMATION_FIELD).trim();
  if (typed === expected.trim()) return null;
  return {
    status: "error",
    message: null,
    fieldErrors: { [CONFIRMATION_FIELD]: message },
    values: { [CONFIRMATION_FIELD]: typed },
    nonce: Date.now(),
  };
}
