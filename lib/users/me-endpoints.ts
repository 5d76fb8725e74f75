import { getDb } from "@/db/client";
import { changePassword, passwordStatus } from "../auth/change-password";
import { endpoint } from "../operation/endpoint";
import { listMySessions, revokeMySession, revokeOtherSessions } from "../sessions/my-sessions";
import { confirmAccountDeletion, requestAccountDeletion } from "./account-deletion";
import { downloadDataExport, listDataRequests, openDataExportLink, requestDataExport } from "./data-requests";
import { addEmailAddress, listEmailAddresses, promoteEmailAddress, removeEmailAddress, resendEmailAddressVerification } from "./email-addresses";
import { openVerificationLink, resendVerificationEmail, verifyEmailLink } from "./email-verification";
import {
  addEmailAddressOperation,
  changePasswordOperation,
  confirmDeletionOperation,
  downloadDataExportOperation,
  getMeOperation,
  getPasswordStatusOperation,
  listDataRequestsOperation,
  listEmailAddressesOperation,
  listMySessionsOperation,
  openDataExportLinkOperation,
  promoteEmailAddressOperation,
  removeEmailAddressOperation,
  requestDataExportOperation,
  requestDeletionOperation,
  resendEmailAddressOperation,
  resendVerificationOperation,
  revokeMySessionOperation,
  revokeOtherSessionsOperation,
  updateMeOperation,
  openEmailVerificationLinkOperation,
  verifyEmailAddressOperation,
} from "./me-operations";
import { toClientUser } from "./serialize";
import { updateMe } from "./update-me";

/*
 * The signed-in user's own operations with their implementations: served by the
 * route kit under /_svc/users/me and invoked by the hosted account pages.
 */

export const getMeEndpoint = endpoint(getMeOperation, async ({ session }) => toClientUser(session.user));

export const updateMeEndpoint = endpoint(updateMeOperation, ({ session, body, actor }) => updateMe(getDb(), session, body, actor));

export const getPasswordStatusEndpoint = endpoint(getPasswordStatusOperation, async ({ session }) => passwordStatus(session));

export const changePasswordEndpoint = endpoint(changePasswordOperation, ({ environment, session, body, actor }) =>
  changePassword(getDb(), environment, session, body, actor),
);

export const listMySessionsEndpoint = endpoint(listMySessionsOperation, ({ session }) => listMySessions(getDb(), session));

export const revokeMySessionEndpoint = endpoint(revokeMySessionOperation, ({ session, params, actor }) =>
  revokeMySession(getDb(), session, params.sessionId, actor),
);

export const revokeOtherSessionsEndpoint = endpoint(revokeOtherSessionsOperation, ({ session, actor }) => revokeOtherSessions(getDb(), session, actor));

export const resendVerificationEndpoint = endpoint(resendVerificationOperation, ({ environment, session }) =>
  resendVerificationEmail(getDb(), environment, session),
);

export const openVerificationLinkEndpoint = endpoint(openEmailVerificationLinkOperation, ({ environment, query, context }) =>
  openVerificationLink(getDb(), environment, query.token, context),
);

export const verifyEmailAddressEndpoint = endpoint(verifyEmailAddressOperation, ({ environment, body, context }) =>
  verifyEmailLink(getDb(), environment, body.token, context.requestId),
);

export const listEmailAddressesEndpoint = endpoint(listEmailAddressesOperation, ({ session }) => listEmailAddresses(getDb(), session));

export const addEmailAddressEndpoint = endpoint(addEmailAddressOperation, ({ environment, session, body, actor }) =>
  addEmailAddress(getDb(), environment, session, body.email, actor),
);

export const promoteEmailAddressEndpoint = endpoint(promoteEmailAddressOperation, ({ environment, session, params, actor }) =>
  promoteEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const resendEmailAddressEndpoint = endpoint(resendEmailAddressOperation, ({ environment, session, params }) =>
  resendEmailAddressVerification(getDb(), environment, session, params.emailAddressId),
);

export const removeEmailAddressEndpoint = endpoint(removeEmailAddressOperation, ({ environment, session, params, actor }) =>
  removeEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const requestDeletionEndpoint = endpoint(requestDeletionOperation, ({ environment, session, body, context }) =>
  requestAccountDeletion(getDb(), environment, session, body.confirmation, context),
);

export const confirmDeletionEndpoint = endpoint(confirmDeletionOperation, async ({ environment, body, context, effects }) => {
  const result = await confirmAccountDeletion(getDb(), environment, body.token, context);
  effects.clearSession();
  return result;
});

export const openDataExportLinkEndpoint = endpoint(openDataExportLinkOperation, ({ environment, params, query, context }) =>
  openDataExportLink(getDb(), environment, params.dataRequestId, query.token, context),
);

export const downloadDataExportEndpoint = endpoint(downloadDataExportOperation, async ({ environment, params, body, effects }) => {
  effects.headers.set("content-disposition", `attachment; filename="data-export-${params.dataRequestId}.json"`);
  return downloadDataExport(getDb(), environment, params.dataRequestId, body.token);
});

export const listDataRequestsEndpoint = endpoint(listDataRequestsOperation, ({ session }) => listDataRequests(getDb(), session));

export const requestDataExportEndpoint = endpoint(requestDataExportOperation, ({ environment, session, actor }) =>
  requestDataExport(getDb(), environment, session, actor),
);
