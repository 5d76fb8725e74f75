import { getDb } from "@/db/client";
import { AppError } from "../errors";
import { requestContextOf } from "../http/request-context";
import { requestIdFor } from "../http/request-id";
import { describeContinuation, type ContinuationView } from "../oauth/signup-continuation";
import { findLiveDataExport } from "../users/data-requests";
import { inspectVerificationLink } from "../users/email-verification";
import type { HostedContext } from "./hosted-context";

/*
 * The reads of the pages a link lands on (an emailed download or verification
 * link, the way back from an OAuth provider), which no Client API operation
 * answers for a page: the operations that open such links answer a browser with a
 * redirect to these very pages (GET /_svc/users/me/data-requests/{id}?token=,
 * GET /_svc/users/me/email-addresses/verify?token=), and the continuation's read is
 * rate-limited per IP and knows nothing of the browser that came back. Each only
 * looks: the page's button does the change, with a POST (link previews and mail
 * scanners fetch links too).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a data-export download link still works, so that a dead one is said so before anyone presses the button. */
export async function dataExportLinkIsLive(context: HostedContext, id: string | null, token: string | null): Promise<boolean> {
  if (!id || !token || !UUID.test(id)) return false;
  return Boolean(await findLiveDataExport(getDb(), context.environment, id, token));
}

/** The address an email-verification link would verify, and the account it joins (masked); null for a dead link. */
export async function readVerificationLink(context: HostedContext, token: string | null): Promise<{ email: string; account: string | null } | null> {
  if (!token) return null;
  return inspectVerificationLink(getDb(), context.environment, token).catch((error: unknown) => {
    if (error instanceof AppError) return null;
    throw error;
  });
}

/**
 * A deferred OAuth sign-up, for the browser that came back from the provider only
 * (its cookie): another browser holding the link is told it is dead, as is a used
 * or expired token.
 */
export async function readSignUpContinuation(context: HostedContext, token: string | null): Promise<ContinuationView | null> {
  if (!token) return null;
  const browser = requestContextOf(context.request, requestIdFor(context.request));
  return describeContinuation(getDb(), context.environment, token, browser).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "invalid_code") return null;
    throw error;
  });
}
