import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { respondWithEstablishment } from "../sessions/respond-with-session";
import { deletePasskey, listMyPasskeys, renamePasskey } from "./manage-passkeys";
import {
  deletePasskeyOperation,
  listPasskeysOperation,
  passkeyRegistrationOptionsOperation,
  passkeyReverifyOperation,
  passkeyReverifyOptionsOperation,
  passkeySecondFactorOperation,
  passkeySecondFactorOptionsOperation,
  passkeySignInOperation,
  passkeySignInOptionsOperation,
  registerPasskeyOperation,
  renamePasskeyOperation,
} from "./operations";
import { passkeyRegistrationOptions, registerPasskey } from "./registration";
import { passkeyReverifyOptions, reverifyWithPasskey } from "./reverify";
import { passkeySecondFactor, passkeySecondFactorOptions } from "./second-factor";
import { passkeySignInOptions, signInWithPasskey } from "./sign-in";

/*
 * The passkey operations with their implementations: served by the route kit under
 * /_svc and invoked by the hosted pages (the WebAuthn calls themselves run in the
 * browser, between an options call and its verify call).
 */

export const passkeyRegistrationOptionsEndpoint = endpoint(passkeyRegistrationOptionsOperation, ({ environment, session, context }) =>
  passkeyRegistrationOptions(getDb(), environment, session, context),
);

export const registerPasskeyEndpoint = endpoint(registerPasskeyOperation, ({ environment, session, body, context, actor }) =>
  registerPasskey(getDb(), environment, session, body, context, actor),
);

export const listPasskeysEndpoint = endpoint(listPasskeysOperation, ({ session }) => listMyPasskeys(getDb(), session));

export const renamePasskeyEndpoint = endpoint(renamePasskeyOperation, ({ environment, session, params, body, actor }) =>
  renamePasskey(getDb(), environment, session, params.passkeyId, body.name, actor),
);

export const deletePasskeyEndpoint = endpoint(deletePasskeyOperation, ({ environment, session, params, actor }) =>
  deletePasskey(getDb(), environment, session, params.passkeyId, actor),
);

export const passkeySignInOptionsEndpoint = endpoint(passkeySignInOptionsOperation, ({ environment, context }) =>
  passkeySignInOptions(getDb(), environment, context),
);

export const passkeySignInEndpoint = endpoint(passkeySignInOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await signInWithPasskey(getDb(), environment, body.response, context), { isNative: query._is_native }),
);

export const passkeySecondFactorOptionsEndpoint = endpoint(passkeySecondFactorOptionsOperation, ({ environment, body, context }) =>
  passkeySecondFactorOptions(getDb(), environment, body.mfaToken, context),
);

export const passkeySecondFactorEndpoint = endpoint(passkeySecondFactorOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await passkeySecondFactor(getDb(), environment, body, context), { isNative: query._is_native }),
);

export const passkeyReverifyOptionsEndpoint = endpoint(passkeyReverifyOptionsOperation, ({ environment, session, context }) =>
  passkeyReverifyOptions(getDb(), environment, session, context),
);

export const passkeyReverifyEndpoint = endpoint(passkeyReverifyOperation, ({ environment, session, body, context, actor }) =>
  reverifyWithPasskey(getDb(), environment, session, body.response, context, actor),
);
