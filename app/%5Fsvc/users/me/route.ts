import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { getMeOperation, updateMeOperation } from "@/lib/users/me-operations";
import { toClientUser } from "@/lib/users/serialize";
import { updateMe } from "@/lib/users/update-me";

// GET /_svc/users/me — the signed-in user
export const GET = sessionRoute(getMeOperation, async ({ session }) => toClientUser(session.user));

// PATCH /_svc/users/me — names, locale, unsafe metadata
export const PATCH = sessionRoute(updateMeOperation, ({ session, body, actor }) => updateMe(getDb(), session, body, actor));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, DELETE } = unsupportedMethods({ GET, PATCH, OPTIONS });
