import { getDb } from "@/db/client";
import { bootProbeOperation } from "@/lib/auth/operations";
import { corsHeaders } from "@/lib/http/cors";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, publicRoute } from "@/lib/http/route";
import { bootProbe } from "@/lib/sessions/boot-probe";

// GET /_svc/client — boot probe: always 200, `authenticated` says whether a session is live
export const GET = publicRoute(bootProbeOperation, async ({ request, responseHeaders }) => {
  const { environment, body } = await bootProbe(getDb(), request);
  for (const [name, value] of Object.entries(corsHeaders(request, environment))) responseHeaders.set(name, value);
  return body;
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
