import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { listMyIdentities, unlinkMyIdentity } from "./manage-identities";
import { listMyIdentitiesOperation, unlinkMyIdentityOperation } from "./operations";

/* The signed-in user's connected accounts: served by the route kit under /_svc and invoked by the account page. */

export const listMyIdentitiesEndpoint = endpoint(listMyIdentitiesOperation, ({ session }) => listMyIdentities(getDb(), session));

export const unlinkMyIdentityEndpoint = endpoint(unlinkMyIdentityOperation, ({ environment, session, params, actor }) =>
  unlinkMyIdentity(getDb(), environment, session, params.identityId, actor),
);
