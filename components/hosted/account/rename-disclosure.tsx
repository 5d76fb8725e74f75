"use client";

import type { ReactNode } from "react";
import { useField } from "@/components/ui/form-context";
import styles from "./account.module.css";

/** A row's "Rename" disclosure: open by itself when its field has an error to show. */
export function RenameDisclosure({ field, summary, children }: { field: string; summary: string; children: ReactNode }) {
  const { error, nonce } = useField(field);
  return (
    // A new key per answer lets an error reopen it after the person closed it.
    <details key={nonce} className={styles.rename} open={Boolean(error) || undefined}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
