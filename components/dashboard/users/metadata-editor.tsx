"use client";

import { useId, useState } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { useField } from "@/components/ui/form-context";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { updateUserMetadataAction } from "@/lib/dashboard/actions/users";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { format } from "@/lib/hosted/i18n/messages";
import type { MetadataBag } from "@/lib/users/metadata";
import { ResultToast } from "../result-toast";
import field from "@/components/ui/field.module.css";
import styles from "./users.module.css";

interface Props {
  t: DashboardMessages;
  environmentId: string;
  userId: string;
  bag: MetadataBag;
  limit: number;
  /** The stored bag as the editor shows it (pretty JSON). */
  text: string;
  readOnly: boolean;
}

/** The UTF-8 size of the text's compact JSON, as the limit counts it; null while it is not JSON. */
function compactBytes(text: string): number | null {
  try {
    return new TextEncoder().encode(JSON.stringify(JSON.parse(text.trim() === "" ? "{}" : text))).length;
  } catch {
    return null;
  }
}

function EditorField({ t, bag, limit, text, readOnly }: Omit<Props, "environmentId" | "userId">) {
  const id = useId();
  const shown = useField(bag, text);
  const [value, setValue] = useState<string | null>(null);
  const current = value ?? shown.value ?? text;
  const size = compactBytes(current);
  const over = size !== null && size > limit;
  const copy = t.users.metadata;
  const counter = size === null ? copy.counterInvalid : format(over ? copy.counterOver : copy.counter, { size: String(size), limit: String(limit) });
  return (
    <div className={field.field}>
      <label htmlFor={id} className={field.label}>
        {copy[bag]}
      </label>
      <p id={`${id}-hint`} className={field.hint}>
        {copy[`${bag}Hint`]}
      </p>
      <textarea
        key={shown.nonce}
        id={id}
        name={bag}
        defaultValue={current}
        onChange={(event) => setValue(event.target.value)}
        readOnly={readOnly}
        spellCheck={false}
        rows={Math.min(14, Math.max(5, current.split("\n").length + 1))}
        className={styles.textarea}
        aria-invalid={shown.error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-counter${shown.error ? ` ${id}-error` : ""}`}
        autoFocus={shown.firstInvalid}
        data-testid={`metadata-${bag}`}
      />
      {/* The counter is read once typing pauses, not on every key: a polite region. */}
      <p id={`${id}-counter`} className={over || size === null ? styles.counterOver : styles.counter} aria-live="polite" data-testid={`counter-${bag}`}>
        {counter}
      </p>
      <p id={`${id}-error`} className={field.error}>
        {shown.error}
      </p>
    </div>
  );
}

/**
 * One metadata bag in a JSON editor with a live byte counter against its limit
 * (JavaScript only: without it the server's check is the counter). Saving replaces
 * the bag with the text; invalid JSON or a bag over its limit is refused at the
 * field and nothing is saved.
 */
export function MetadataEditor(props: Props) {
  const { t, environmentId, userId, bag, text, readOnly } = props;
  if (readOnly) return <EditorField {...props} />;
  return (
    <ActionForm action={updateUserMetadataAction} hidden={{ env: environmentId, userId, bag, original: text }} aria-label={t.users.metadata[bag]}>
      <EditorField {...props} />
      <FormStatus errorsOnly />
      <ResultToast />
      <div>
        <SubmitButton variant="secondary" aria-label={`${t.users.metadata.save}: ${t.users.metadata[bag]}`}>
          {t.users.metadata.save}
        </SubmitButton>
      </div>
    </ActionForm>
  );
}
