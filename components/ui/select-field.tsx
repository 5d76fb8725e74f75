"use client";

import { useId } from "react";
import { useField } from "./form-context";
import styles from "./field.module.css";

interface SelectFieldProps {
  name: string;
  label: string;
  options: { value: string; label: string; lang?: string }[];
  defaultValue?: string;
  /**
   * In a row of controls whose form reports errors in its status (a member's role and
   * its buttons): no empty error line is reserved under the select, so the row's
   * buttons can line up with it. An error, should one come, still shows.
   */
  inline?: boolean;
}

/** A labelled native select (keyboard and screen-reader behaviour for free) with a reserved error line. */
export function SelectField({ name, label, options, defaultValue, inline }: SelectFieldProps) {
  const id = useId();
  const field = useField(name, defaultValue);
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <select
        key={field.nonce}
        id={id}
        name={name}
        defaultValue={field.value}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={field.error ? errorId : undefined}
        className={styles.input}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
      {inline && !field.error ? null : (
        <p id={errorId} className={styles.error}>
          {field.error}
        </p>
      )}
    </div>
  );
}
