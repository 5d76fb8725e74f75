import { mailboxOpenTo } from "@/lib/email/email-settings";
import { listMailboxMessages } from "@/lib/email/mailbox";
import { serviceUnavailableFor } from "@/lib/http/database-faults";
import { logUnexpectedError } from "@/lib/log";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { apiNotFound } from "@/lib/http/not-found";
import { problemFor, problemResponse } from "@/lib/http/problem";
import { requestIdFor } from "@/lib/http/request-id";

// GET /dev/mailbox/messages?to=<email> — outbox messages as JSON, newest first (at most 50), for curl and tests; loopback only.
export async function GET(request: Request): Promise<Response> {
  // Off in production and to other machines: the answer to "is there a mailbox?" is the same as for any unknown path.
  if (!mailboxOpenTo(request)) return apiNotFound(request);
  const requestId = requestIdFor(request);
  try {
    const to = new URL(request.url).searchParams.get("to") || undefined;
    const messages = await listMailboxMessages({ to });
    const items = messages.map((message) => ({ ...message, createdAt: message.createdAt.toISOString() }));
    return Response.json({ items }, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch (error) {
    const unavailable = serviceUnavailableFor(error, requestId);
    if (unavailable) return problemResponse(unavailable, requestId);
    logUnexpectedError(requestId, error);
    return problemFor("internal_error", `Something went wrong; quote request id ${requestId}.`, requestId);
  }
}

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
