import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { respondWithSession } from "../sessions/respond-with-session";
import { impersonateOperation } from "./operations";
import { redeemImpersonationToken } from "./redeem-impersonation-token";

// POST /_svc/auth/session/impersonate — open an impersonation session with a one-time token
export const impersonateEndpoint = endpoint(impersonateOperation, async ({ environment, query, body, context, effects }) =>
  respondWithSession(effects, await redeemImpersonationToken(getDb(), environment, body.token, context), { isNative: query._is_native }),
);
