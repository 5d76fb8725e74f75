"use client";

import { useId } from "react";
import { useField } from "@/components/ui/form-context";
import field from "@/components/ui/field.module.css";

/** A labelled textarea of one entry a line (hosts, origins), its error right under it. */
export function LinesField({ name, label, hint, defaultValue, readOnly }: { name: string; label: string; hint: string; defaultValue: string; readOnly?: boolean }) {
  const id = useId();
  const state = useField(name, defaultValue);
  return (
    <div className={field.field}>
      <label htmlFor={id} className={field.label}>
        {label}
      </label>
      <p id={`${id}-hint`} className={field.hint}>
        {hint}
      </p>
      <textarea
        key={state.nonce}
        id={id}
        name={name}
        rows={4}
        defaultValue={state.value}
        readOnly={readOnly}
        spellCheck={false}
        autoCapitalize="none"
        aria-invalid={state.error ? true : undefined}
        aria-describedby={`${id}-hint${state.error ? ` ${id}-error` : ""}`}
        autoFocus={state.firstInvalid}
        className={field.input}
      />
      <p id={`${id}-error`} className={field.error}>
        {state.error}
      </p>
    </div>
  );
}
