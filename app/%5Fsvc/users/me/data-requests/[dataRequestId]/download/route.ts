import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { downloadDataExportEndpoint, openDataExportLinkEndpoint } from "@/lib/users/me-endpoints";

// GET /_svc/users/me/data-requests/{id}/download?token= — the emailed link: changes nothing (browsers land on the download page)
export const GET = route(openDataExportLinkEndpoint);

// POST /_svc/users/me/data-requests/{id}/download {token} — the download itself, once (JSON or a plain form post)
export const POST = route(downloadDataExportEndpoint);

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
