/**
 * What a hosted server action answers to its form (React's useActionState). Plain
 * data only: it crosses to the browser. Messages are already localized.
 */
export interface FormState {
  status: "idle" | "error" | "success";
  /** Form-level message, announced in the form's live region. */
  message: string | null;
  /** Field name → message shown under that field. */
  fieldErrors: Record<string, string>;
  /** Non-secret values echoed back, so a form re-rendered without JavaScript keeps what was typed. */
  values: Record<string, string>;
  /** Differs between two submissions with the same answer, so focus moves and the message is announced again. */
  nonce: number;
  /** Seconds before the next resend is allowed (verify-code page). */
  cooldownSeconds?: number;
  /** An authenticator app being set up: what to scan or type, until its first code confirms it. */
  totpEnrollment?: TotpEnrollment;
  /** Recovery codes just made: shown in this one answer, never again. */
  recoveryCodes?: string[];
  /** Where "continue" leads once the recovery codes are saved (enrollment during sign-in). */
  continueUrl?: string;
  /**
   * A form the browser posts next, to another origin (the dashboard's impersonation:
   * its one-time token to the environment's hosted landing, never in a URL).
   */
  handoff?: { action: string; fields: Record<string, string> };
  /** A secret just made (a dashboard's new secret key): shown in this one answer, never again. */
  secret?: string;
}

/** POST /_svc/users/me/mfa/totp's answer (and its sign-in twin's): the secret, as a URI and as a QR code. */
export interface TotpEnrollment {
  secret: string;
  otpauthUri: string;
  /** An SVG image as a data: URI. */
  qrCodeSvg: string;
}

export type FormAction = (state: FormState, form: FormData) => Promise<FormState>;

export const IDLE_STATE: FormState = { status: "idle", message: null, fieldErrors: {}, values: {}, nonce: 0 };

export function successState(message: string | null, extra: Partial<FormState> = {}): FormState {
  return { status: "success", message, fieldErrors: {}, values: {}, nonce: Date.now(), ...extra };
}

/** A form-level error of the action's own (e.g. "wait before asking again"). */
export function messageErrorState(message: string, extra: Partial<FormState> = {}): FormState {
  return { status: "error", message, fieldErrors: {}, values: {}, nonce: Date.now(), ...extra };
}

/** A text field of a submitted form; "" when absent (a missing field is validated like an empty one). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
