"use client";

import { useState, useSyncExternalStore, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";
import { FormActions } from "@/components/ui/form-actions";
import type { Messages } from "@/lib/hosted/i18n/messages";
import styles from "./mfa.module.css";

export interface RecoveryCodesFile {
  name: string;
  /** The first lines of the file: whose codes these are, and how to keep them. */
  heading: string[];
}

interface RecoveryCodesProps {
  codes: string[];
  labels: Messages["recoveryCodes"];
  file: RecoveryCodesFile;
  /** The way on: a "done" submit button, or a link to the next step. */
  done: ReactNode;
  /** One below the heading of the card it is in. */
  headingLevel: 2 | 3;
}

const noSubscription = () => () => {};

/**
 * The recovery codes, shown once. Downloading is a data: URL link, so it works
 * without JavaScript and the codes never travel in a request (no server log, no
 * proxy sees them); copying needs the clipboard API and appears only with it.
 */
export function RecoveryCodes({ codes, labels, file, done, headingLevel }: RecoveryCodesProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const canCopy = useSyncExternalStore(noSubscription, () => Boolean(navigator.clipboard), () => false);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const text = [...file.heading, "", ...codes, ""].join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopyStatus(labels.copied);
    } catch {
      setCopyStatus(labels.copyFailed);
    }
  }

  return (
    <div className={styles.panel}>
      {/* Focused on arrival (with or without JavaScript), so the codes are what a screen reader reads next. */}
      <Heading className={styles.heading} tabIndex={-1} autoFocus>
        {labels.title}
      </Heading>
      <p className={styles.text}>{labels.lead}</p>
      <ul className={styles.codes} aria-label={labels.listLabel} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <FormActions>
        <ButtonLink href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download={file.name} variant="secondary">
          {labels.download}
        </ButtonLink>
        {canCopy ? (
          <Button variant="secondary" onClick={copy}>
            {labels.copy}
          </Button>
        ) : null}
      </FormActions>
      <p role="status" className={styles.note}>
        {copyStatus}
      </p>
      <FormActions>{done}</FormActions>
    </div>
  );
}
