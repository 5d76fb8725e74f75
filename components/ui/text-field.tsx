"use client";

import { useId, type InputHTMLAttributes } from "react";
import { useField } from "./form-context";
import styles from "./field.module.css";

type NativeProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  "autoComplete" | "inputMode" | "pattern" | "maxLength" | "minLength" | "spellCheck" | "autoCapitalize" | "placeholder" | "readOnly"
>;

interface TextFieldProps extends NativeProps {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  hint?: string;
  required?: boolean;
  defaultValue?: string;
  /** Overrides the enclosing form's error, for fields used outside an ActionForm. */
  error?: string;
}

/**
 * A labelled input whose error appears right under it, in a slot that is always
 * there (one line high), so an error never pushes the rest of the form down.
 */
export function TextField({ name, label, type = "text", hint, required, defaultValue, error: errorProp, ...native }: TextFieldProps) {
  const id = useId();
  const field = useField(name, defaultValue);
  const error = errorProp ?? field.error;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <input
        // A new key per answer re-applies the echoed value after React resets the form.
        key={field.nonce}
        id={id}
        name={name}
        type={type}
        required={required}
        defaultValue={type === "password" ? undefined : field.value}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined}
        autoFocus={field.firstInvalid}
        className={styles.input}
        {...native}
      />
      <p id={errorId} className={styles.error}>
        {error}
      </p>
    </div>
  );
}
