"use client";

import { useActionState, useEffect, useRef, type ReactNode } from "react";
import { IDLE_STATE, type FormAction, type FormState } from "@/lib/hosted/form-state";
import { FormContext } from "./form-context";
import styles from "./form.module.css";

interface ActionFormProps {
  action: FormAction;
  /** Hidden inputs, e.g. pk and redirect_url. */
  hidden?: Record<string, string>;
  /** The fields; a function of the last answer for a form whose steps follow its answers (e.g. set up, then confirm). */
  children: ReactNode | ((state: FormState) => ReactNode);
  /** Replaces the form's fields once the action succeeds (e.g. "your account is deleted"). */
  successContent?: ReactNode;
  className?: string;
  "aria-label"?: string;
}

/**
 * A form posting to a server action through useActionState: a plain HTML form
 * post without JavaScript (the server answers with the page and the new state),
 * an in-place update with it. After an error, focus moves to the first invalid
 * field, or to the form's message when no field is at fault.
 */
export function ActionForm({ action, hidden = {}, children, successContent, className, ...rest }: ActionFormProps) {
  const [state, formAction, pending] = useActionState(action, IDLE_STATE);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (state.status !== "error" || !formRef.current) return;
    const target = formRef.current.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-message="error"]');
    target?.focus();
  }, [state]);

  return (
    <FormContext value={{ state, pending }}>
      {/* noValidate: the server's messages, in the page's language and next to the field, are the validation. */}
      <form ref={formRef} action={formAction} noValidate className={`${styles.form} ${className ?? ""}`} aria-label={rest["aria-label"]}>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {state.status === "success" && successContent ? successContent : typeof children === "function" ? children(state) : children}
      </form>
    </FormContext>
  );
}
