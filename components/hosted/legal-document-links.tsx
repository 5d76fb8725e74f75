import type { Messages } from "@/lib/hosted/i18n/messages";
import { TextLink } from "@/components/ui/text-link";
import styles from "./legal-document-links.module.css";

/** "Read the terms of service and the privacy policy", each opening in a new tab so the form keeps its input. */
export function LegalDocumentLinks({ t, termsUrl, privacyUrl }: { t: Messages; termsUrl: string | null; privacyUrl: string | null }) {
  const external = { newTabLabel: t.common.opensInNewTab };
  return (
    <p className={styles.documents}>
      {t.signUp.documents}{" "}
      {termsUrl ? (
        <TextLink href={termsUrl} external={external}>
          {t.signUp.terms}
        </TextLink>
      ) : null}
      {termsUrl && privacyUrl ? ` ${t.signUp.and} ` : null}
      {privacyUrl ? (
        <TextLink href={privacyUrl} external={external}>
          {t.signUp.privacy}
        </TextLink>
      ) : null}
      .
    </p>
  );
}
