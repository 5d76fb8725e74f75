"use client";

import { useEffect, useState } from "react";
import { useFormContext } from "@/components/ui/form-context";
import styles from "./dashboard.module.css";

/**
 * A dashboard form's success, shown as a toast at the bottom of the screen ("Secret
 * key revoked"): the message is in a live region that is always in the page, so it is
 * announced, and it fades after a few seconds (it stays without JavaScript, where the
 * page is re-rendered with it). Errors stay in the form, next to what caused them:
 * pair it with `<FormStatus errorsOnly />`.
 */
export function ResultToast() {
  const state = useFormContext()?.state;
  const message = state?.status === "success" ? state.message : null;
  const [hiddenNonce, setHiddenNonce] = useState<number | null>(null);
  useEffect(() => {
    if (!message || !state) return;
    const timer = setTimeout(() => setHiddenNonce(state.nonce), 6000);
    return () => clearTimeout(timer);
  }, [message, state]);
  const visible = Boolean(message) && hiddenNonce !== state?.nonce;
  return (
    <p role="status" className={visible ? styles.toast : styles.toastHidden}>
      {visible ? message : null}
    </p>
  );
}
