import { getDb } from "@/db/client";
import { mailboxEnabled } from "@/lib/email/email-settings";
import { listMailboxMessages } from "@/lib/email/mailbox";
import { serviceUnavailableFor } from "@/lib/http/database-faults";
import { logUnexpectedError } from "@/lib/http/log";
import { apiNotFound } from "@/lib/http/not-found";
import { problemFor, problemResponse } from "@/lib/http/problem";
import { requestIdFor } from "@/lib/http/request-id";

// GET /dev/mailbox/messages?to=<email> — outbox messages as JSON, newest first (at most 50), for curl and tests.
export async function GET(request: Request): Promise<Response> {
  // Off in production: the answer to "is there a mailbox?" is the same as for any unknown path.
  if (!mailboxEnabled()) return apiNotFound(request);
  const requestId = requestIdFor(request);
  try {
    const to = new URL(request.url).searchParams.get("to") || undefined;
    const messages = await listMailboxMessages(getDb(), { to });
    const items = messages.map((message) => ({ ...message, createdAt: message.createdAt.toISOString() }));
    return Response.json({ items }, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch (error) {
    const unavailable = serviceUnavailableFor(error, requestId);
    if (unavailable) return problemResponse(unavailable, requestId);
    logUnexpectedError(requestId, error);
    return problemFor("internal_error", `Something went wrong; quote request id ${requestId}.`, requestId);
  }
}
