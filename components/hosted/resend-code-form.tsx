"use client";

import { useActionState, useEffect, useState } from "react";
import { format } from "@/lib/hosted/i18n/messages";
import { IDLE_STATE, type FormAction } from "@/lib/hosted/form-state";
import { Button } from "@/components/ui/button";
import { FormContext } from "@/components/ui/form-context";
import { FormStatus } from "@/components/ui/form-status";
import styles from "./resend-code-form.module.css";

interface ResendCodeFormProps {
  action: FormAction;
  hidden: Record<string, string>;
  /** Seconds left of the cooldown when the page was rendered. */
  initialSeconds: number;
  labels: { resend: string; resendIn: string; resendReady: string };
}

/**
 * "Send a new code" with a visible cooldown. With JavaScript the seconds count
 * down and the button waits; without it the page states the wait and the server
 * answers an early press with how long is left.
 */
export function ResendCodeForm({ action, hidden, initialSeconds, labels }: ResendCodeFormProps) {
  const [state, formAction, pending] = useActionState(action, IDLE_STATE);
  const [countdown, setCountdown] = useState({ nonce: state.nonce, left: initialSeconds, running: false });

  // A new answer with a cooldown restarts the count (adjusting state during render, as React recommends).
  if (state.nonce !== countdown.nonce) {
    setCountdown({ nonce: state.nonce, left: state.cooldownSeconds ?? countdown.left, running: true });
  }

  useEffect(() => {
    const timer = setInterval(() => setCountdown((current) => ({ ...current, left: Math.max(0, current.left - 1), running: true })), 1000);
    return () => clearInterval(timer);
  }, []);

  const waiting = countdown.left > 0;
  return (
    <FormContext value={{ state, pending }}>
      <form action={formAction} className={styles.resend}>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <p className={styles.hint} aria-live="off">
          {waiting ? format(labels.resendIn, { seconds: countdown.left }) : labels.resendReady}
        </p>
        {/* Disabled only while the count is visibly running: without JavaScript it would never re-enable. */}
        <Button type="submit" variant="secondary" disabled={pending || (waiting && countdown.running)}>
          {labels.resend}
        </Button>
        <FormStatus />
      </form>
    </FormContext>
  );
}
