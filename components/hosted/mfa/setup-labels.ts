import { format, type Messages } from "@/lib/hosted/i18n/messages";
import type { RecoveryCodesFile } from "./recovery-codes";
import type { TotpSetupLabels } from "./totp-setup";

/** The copy the authenticator setup shows, in the page's language. */
export function totpSetupLabels(t: Messages, appName: string): TotpSetupLabels {
  return { setup: t.totpSetup, recovery: t.recoveryCodes, codeLabel: t.fields.totpCode, qrAlt: format(t.totpSetup.qrAlt, { app: appName }) };
}

/** The downloaded codes file: named for the application, saying whose codes they are. */
export function recoveryCodesFile(t: Messages, appName: string, email: string | null): RecoveryCodesFile {
  const slug = appName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return {
    name: `${slug || "account"}-recovery-codes.txt`,
    heading: [format(t.recoveryCodes.fileTitle, { app: appName, email: email ?? "" }).replace(" ()", ""), t.recoveryCodes.fileHint],
  };
}
