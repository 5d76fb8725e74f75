import { getDb } from "@/db/client";
import { retryReadOnce } from "../http/database-faults";
import { internalEnvironment } from "../operators/internal-environment";
import { describeSignInLink } from "../operators/sign-in-link";

/**
 * What /dashboard/set-password shows for a link: whom it is for and the password
 * policy's minimum, or null for a wrong, used or expired link. Reads only: opening
 * the link (a mail scanner, a preview) spends nothing.
 */
export async function loadSetPasswordPage(token: string): Promise<{ email: string; minLength: number } | null> {
  return retryReadOnce(async () => {
    const link = await describeSignInLink(getDb(), token);
    if (!link) return null;
    const environment = await internalEnvironment(getDb());
    return { email: link.email, minLength: environment.settings.passwordPolicy.minLength };
  });
}
