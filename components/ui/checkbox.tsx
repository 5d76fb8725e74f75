"use client";

import { useId, type ReactNode } from "react";
import { useField } from "./form-context";
import styles from "./field.module.css";

interface CheckboxProps {
  name: string;
  label: ReactNode;
  required?: boolean;
}

/** A checkbox with its label beside it and a reserved error line under it. */
export function Checkbox({ name, label, required }: CheckboxProps) {
  const id = useId();
  const field = useField(name);
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <div className={styles.check}>
        <input
          id={id}
          type="checkbox"
          name={name}
          required={required}
          aria-invalid={field.error ? true : undefined}
          aria-describedby={field.error ? errorId : undefined}
          autoFocus={field.firstInvalid}
          className={styles.checkbox}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <p id={errorId} className={styles.error}>
        {field.error}
      </p>
    </div>
  );
}
