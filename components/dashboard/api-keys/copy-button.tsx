"use client";

import { useState } from "react";
import styles from "./keys.module.css";

/**
 * Copies a value to the clipboard and says so in a live region. Without JavaScript
 * the value is still in the page, selectable, next to the button.
 */
export function CopyButton({ value, label, copiedLabel }: { value: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className={styles.copy}
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          });
        }}
      >
        {label}
      </button>
      <span role="status" className={styles.copied}>
        {copied ? copiedLabel : ""}
      </span>
    </>
  );
}
