import { impersonationLanding } from "@/lib/hosted/impersonation-landing";

// POST /impersonate — the dashboard's impersonation lands here with its one-time token
export const POST = impersonationLanding;
