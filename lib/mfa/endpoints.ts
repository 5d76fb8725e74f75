import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { respondWithEstablishment, respondWithSession } from "../sessions/respond-with-session";
import { confirmTotpEnrollment, startTotpEnrollment } from "./account-totp";
import { disableMfa } from "./disable-mfa";
import { getMfaStatus } from "./mfa-status";
import {
  confirmMfaEnrollmentOperation,
  confirmTotpEnrollmentOperation,
  disableMfaOperation,
  getMfaStatusOperation,
  regenerateRecoveryCodesOperation,
  startMfaEnrollmentOperation,
  startTotpEnrollmentOperation,
  verifyMfaOperation,
} from "./operations";
import { regenerateRecoveryCodes } from "./regenerate-recovery-codes";
import { confirmSignInEnrollment, startSignInEnrollment } from "./sign-in-enrollment";
import { verifySecondFactor } from "./verify-second-factor";

/*
 * The two-step verification operations with their implementations: served by the
 * route kit under /_svc and invoked by the hosted sign-in and account pages.
 */

export const getMfaStatusEndpoint = endpoint(getMfaStatusOperation, ({ environment, session }) => getMfaStatus(getDb(), environment, session.user));

export const startTotpEnrollmentEndpoint = endpoint(startTotpEnrollmentOperation, ({ environment, session }) =>
  startTotpEnrollment(getDb(), environment, session),
);

export const confirmTotpEnrollmentEndpoint = endpoint(confirmTotpEnrollmentOperation, ({ environment, session, body, actor }) =>
  confirmTotpEnrollment(getDb(), environment, session, body.code, actor),
);

export const regenerateRecoveryCodesEndpoint = endpoint(regenerateRecoveryCodesOperation, ({ environment, session, actor }) =>
  regenerateRecoveryCodes(getDb(), environment, session, actor),
);

export const disableMfaEndpoint = endpoint(disableMfaOperation, ({ environment, session, body, actor }) =>
  disableMfa(getDb(), environment, session, body.code, actor),
);

export const verifyMfaEndpoint = endpoint(verifyMfaOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await verifySecondFactor(getDb(), environment, body, context), { isNative: query._is_native }),
);

export const startMfaEnrollmentEndpoint = endpoint(startMfaEnrollmentOperation, ({ environment, body }) =>
  startSignInEnrollment(getDb(), environment, body.mfaToken),
);

export const confirmMfaEnrollmentEndpoint = endpoint(confirmMfaEnrollmentOperation, async ({ environment, body, query, context, effects }) => {
  const { establishment, recoveryCodes } = await confirmSignInEnrollment(getDb(), environment, body, context);
  switch (establishment.kind) {
    case "session":
    case "pending_gates":
      return { ...respondWithSession(effects, establishment.grant, { isNative: query._is_native }), recoveryCodes };
    case "second_factor_required":
    case "enrollment_required":
      // The proof carries the confirmed app's code, which is all an account can owe.
      throw new Error(`an enrolled factor left ${establishment.kind}`);
  }
});
