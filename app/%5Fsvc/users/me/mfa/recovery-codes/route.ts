import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { regenerateRecoveryCodesEndpoint } from "@/lib/mfa/endpoints";

// POST /_svc/users/me/mfa/recovery-codes — replace the recovery codes
export const POST = route(regenerateRecoveryCodesEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
