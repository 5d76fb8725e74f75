"use client";

import { useFormContext } from "@/components/ui/form-context";
import { CopyButton } from "./copy-button";
import styles from "./keys.module.css";

/**
 * The secret the enclosing form's action just made (a new secret key), from its
 * answer: shown here once, never stored in the page's data, gone on reload.
 */
export function SecretOnce({ title, copy, copied }: { title: string; copy: string; copied: string }) {
  const secret = useFormContext()?.state.secret;
  if (!secret) return null;
  return (
    <div className={styles.secret} data-testid="secret-once">
      <p className={styles.secretTitle}>{title}</p>
      <div className={styles.valueRow}>
        <code className={styles.value}>{secret}</code>
        <CopyButton value={secret} label={copy} copiedLabel={copied} />
      </div>
    </div>
  );
}
