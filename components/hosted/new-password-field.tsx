import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { TextField } from "@/components/ui/text-field";

/**
 * The one way a hosted form asks for a new password: the policy's minimum as a hint
 * and a browser check, and `new-password` so password managers offer to generate one.
 */
export function NewPasswordField({ name, label, t, minLength }: { name: string; label: string; t: Messages; minLength: number }) {
  return (
    <TextField
      name={name}
      type="password"
      label={label}
      hint={format(t.signUp.passwordHint, { min: minLength })}
      autoComplete="new-password"
      minLength={minLength}
      required
    />
  );
}
