import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { FormState } from "./form-state";

/**
 * What a hosted "passkey options" action answers to the browser: the options of
 * the ceremony to run (registration or authentication), or why there are none.
 * The browser then runs the ceremony and posts its response to the matching
 * verify action as the `response` field (JSON).
 */
export interface PasskeyOptionsState extends FormState {
  registration?: PublicKeyCredentialCreationOptionsJSON;
  authentication?: PublicKeyCredentialRequestOptionsJSON;
}

export type PasskeyOptionsAction = (form: FormData) => Promise<PasskeyOptionsState>;
export type PasskeyVerifyAction = (form: FormData) => Promise<FormState>;
