"use client";

import { useFormContext } from "./form-context";
import styles from "./form.module.css";

/**
 * The form-level message. Both live regions are always in the page (a region
 * added together with its text is often not announced) and the box keeps its
 * height whether or not there is a message, so nothing below it moves.
 */
export function FormStatus({ errorsOnly = false }: { /** The success is shown elsewhere (the dashboard's ResultToast). */ errorsOnly?: boolean }) {
  const context = useFormContext();
  const state = context?.state;
  const error = state?.status === "error" ? state.message : null;
  const success = state?.status === "success" && !errorsOnly ? state.message : null;
  const focusOnLoad = Boolean(error) && Object.keys(state?.fieldErrors ?? {}).length === 0;
  return (
    <div className={styles.status}>
      <p
        role="alert"
        className={error ? styles.error : styles.empty}
        tabIndex={-1}
        data-form-message={error ? "error" : undefined}
        // Without JavaScript the page is re-rendered with the error: the browser focuses it on load.
        autoFocus={focusOnLoad}
      >
        {error}
      </p>
      {errorsOnly ? null : (
        <p role="status" className={success ? styles.success : styles.empty}>
          {success}
        </p>
      )}
    </div>
  );
}
