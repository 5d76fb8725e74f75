import { ButtonLink } from "@/components/ui/button-link";
import type { HostedFlow } from "@/lib/flows/hosted-flow";
import { format, type Messages } from "@/lib/hosted/i18n/messages";
import type { PublicOAuthProvider } from "@/lib/oauth/provider-schemas";
import styles from "./provider-buttons.module.css";

interface ProviderButtonsProps {
  t: Messages;
  flow: HostedFlow;
  providers: PublicOAuthProvider[];
  /** The flow's redirect_url, only when the environment may be sent there (safeRedirect accepted it). */
  redirectUrl: string | null;
}

/** The authorize URL of a provider: a plain link, so the buttons work without JavaScript. */
export function authorizeHref(providerId: string, flow: HostedFlow, redirectUrl: string | null): string {
  const query = new URLSearchParams();
  if (redirectUrl) query.set("redirect_url", redirectUrl);
  if (flow.publishableKey) query.set("pk", flow.publishableKey);
  const search = query.toString();
  return `/_svc/auth/oauth2/${encodeURIComponent(providerId)}/authorize${search ? `?${search}` : ""}`;
}

/** "Continue with …" for each enabled provider, in the environment's order, above the email form. */
export function ProviderButtons({ t, flow, providers, redirectUrl }: ProviderButtonsProps) {
  if (providers.length === 0) return null;
  return (
    <>
      <ul className={styles.providers} aria-label={t.oauth.providers}>
        {providers.map((provider) => (
          <li key={provider.id}>
            <ButtonLink href={authorizeHref(provider.id, flow, redirectUrl)} variant="secondary" block>
              {format(t.oauth.continueWith, { provider: provider.name })}
            </ButtonLink>
          </li>
        ))}
      </ul>
      <p className={styles.separator}>{t.oauth.or}</p>
    </>
  );
}
