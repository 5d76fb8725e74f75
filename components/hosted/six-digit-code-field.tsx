import { TextField } from "@/components/ui/text-field";

/**
 * A 6-digit code (emailed, or from an authenticator app): the numeric keypad,
 * one-time-code autofill, and room for the space people paste ("123 456").
 */
export function SixDigitCodeField({ label }: { label: string }) {
  return <TextField name="code" label={label} autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={7} spellCheck={false} required />;
}
