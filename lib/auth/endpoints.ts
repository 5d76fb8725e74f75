import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { respondWithEstablishment } from "../sessions/respond-with-session";
import { acceptLegalDocuments } from "../legal/accept-legal-documents";
import { bootProbe } from "../sessions/boot-probe";
import { reverifySession } from "../sessions/reverification";
import {
  acceptLegalOperation,
  bootProbeOperation,
  forgotPasswordOperation,
  loginOperation,
  logoutOperation,
  resendSignUpOperation,
  resetPasswordOperation,
  reverifyOperation,
  signUpOperation,
  verifySignUpOperation,
} from "./operations";
import { forgotPassword, resetPassword } from "./password-reset";
import { signIn } from "./sign-in";
import { signOut } from "./sign-out";
import { beginSignUp, resendSignUpCode, verifySignUp } from "./sign-up";

/*
 * The sign-up and sign-in operations with their implementations: served by the
 * route kit under /_svc and invoked by the hosted pages' server actions.
 */

export const bootProbeEndpoint = endpoint(bootProbeOperation, async ({ environment, session }) => bootProbe(getDb(), environment, session));

export const signUpEndpoint = endpoint(signUpOperation, ({ environment, body, context }) => beginSignUp(getDb(), environment, body, context));

export const verifySignUpEndpoint = endpoint(verifySignUpOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await verifySignUp(getDb(), environment, body, context), { isNative: query._is_native }),
);

export const resendSignUpEndpoint = endpoint(resendSignUpOperation, ({ environment, body, context }) =>
  resendSignUpCode(getDb(), environment, body.token, context),
);

export const loginEndpoint = endpoint(loginOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await signIn(getDb(), environment, body, context), { isNative: query._is_native }),
);

export const logoutEndpoint = endpoint(logoutOperation, async ({ environment, session, context, effects }) => {
  const { status, clearCookie } = await signOut(getDb(), environment, session, context);
  if (clearCookie) effects.clearSession();
  return { status };
});

export const forgotPasswordEndpoint = endpoint(forgotPasswordOperation, ({ environment, body, context }) =>
  forgotPassword(getDb(), environment, body.email, context),
);

export const resetPasswordEndpoint = endpoint(resetPasswordOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await resetPassword(getDb(), environment, body, context), { isNative: query._is_native }),
);

export const acceptLegalEndpoint = endpoint(acceptLegalOperation, ({ environment, session, context, actor }) =>
  acceptLegalDocuments(getDb(), environment, session, context, actor),
);

export const reverifyEndpoint = endpoint(reverifyOperation, ({ environment, session, body, actor }) =>
  reverifySession(getDb(), environment, session, body, actor),
);
