import { impersonationLanding } from "@/lib/hosted/impersonation-landing";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";

// POST /impersonate — the dashboard's impersonation lands here with its one-time token
export const POST = impersonationLanding;
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
