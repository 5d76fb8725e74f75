import { dashboardAuthCallback } from "@/lib/dashboard/auth-route";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";

// GET /dashboard/api/auth/callback/staff-sso — the staff identity provider's redirect back (staff single sign-on)
export const GET = dashboardAuthCallback;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
