import { TextField } from "@/components/ui/text-field";
import { CONFIRMATION_FIELD } from "@/lib/dashboard/typed-confirmation";

interface TypeToConfirmFieldProps {
  /** "Type the environment's name to delete it", with the name to type in it. */
  label: string;
  /** What to type, shown as the field's hint. */
  expected: string;
}

/**
 * The field of a destructive dashboard form that asks the operator to type what they
 * are about to destroy; the action checks it (lib/dashboard/typed-confirmation.ts).
 */
export function TypeToConfirmField({ label, expected }: TypeToConfirmFieldProps) {
  return <TextField name={CONFIRMATION_FIELD} label={label} hint={expected} autoComplete="off" spellCheck={false} autoCapitalize="none" />;
}
