import type { HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import { impersonatorOf } from "@/lib/sessions/impersonator";
import type { ActiveSession } from "@/lib/sessions/resolve-session";
import { SignOutForm } from "./sign-out-form";
import styles from "./impersonation-banner.module.css";

/** Who the page shows: the user's name, else their address, else their id (a user with neither). */
function displayName(user: ActiveSession["user"]): string {
  return user.name ?? user.email ?? user.id;
}

/**
 * The band above every hosted page while the session is an impersonation: whose
 * account this is, who acts, what only the user may change, and "End", which signs
 * the session out like any sign-out (recorded as `user.impersonation_ended`).
 * A labelled complementary landmark, so assistive technology lists it; its colours
 * keep the page's contrast whatever the environment's accent.
 */
export function ImpersonationBanner({ session, flow, t }: { session: ActiveSession | null; flow: HostedFlow; t: Messages }) {
  const impersonator = session ? impersonatorOf(session.session) : null;
  if (!session || !impersonator) return null;
  return (
    <aside className={styles.banner} aria-labelledby="impersonation-banner-title" data-testid="impersonation-banner">
      <div className={styles.text}>
        <p id="impersonation-banner-title" className={styles.title}>
          {format(t.impersonation.viewingAs, { user: displayName(session.user) })}
        </p>
        <p className={styles.detail}>{format(t.impersonation.detail, { actor: impersonator.id })}</p>
      </div>
      <SignOutForm flow={flow} label={t.impersonation.end} variant="secondary" />
    </aside>
  );
}
