"use client";

import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { useEffect, useRef, useState, useSyncExternalStore, useTransition, type ReactNode } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { FormActions } from "@/components/ui/form-actions";
import type { FormState } from "@/lib/hosted/form-state";
import type { Messages } from "@/lib/hosted/i18n/messages";
import type { PasskeyOptionsAction, PasskeyVerifyAction } from "@/lib/hosted/passkey-ceremony-state";
import styles from "./mfa.module.css";

interface PasskeyCeremonyProps {
  kind: "register" | "authenticate";
  options: PasskeyOptionsAction;
  verify: PasskeyVerifyAction;
  hidden: Record<string, string>;
  label: string;
  labels: Messages["passkey"];
  variant?: ButtonVariant;
  block?: boolean;
  /** Conditional UI: offer the passkeys in the autofill of the page's `webauthn` field from page load. */
  autofill?: boolean;
  /** Fields posted along with the ceremony (a new passkey's name). */
  children?: ReactNode;
  /** A divider above the button ("or"), shown only with the button itself. */
  separator?: string;
  /** Whether to say that passkeys need JavaScript when it is off (not where another way is right there). */
  explainWithoutScript?: boolean;
}

const noSubscription = () => () => {};

/** Whether this browser can run WebAuthn; null while hydrating (the server cannot know). */
function useWebAuthnSupport(): boolean | null {
  return useSyncExternalStore(noSubscription, browserSupportsWebAuthn, () => null);
}

function ceremonyErrorMessage(error: unknown, labels: Messages["passkey"]): string {
  const name = error instanceof WebAuthnError ? (error.cause as Error | undefined)?.name : error instanceof Error ? error.name : "";
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return labels.alreadyRegistered;
  if (name === "NotAllowedError" || name === "AbortError") return labels.cancelled;
  return labels.failed;
}

function stateMessage(state: FormState, fallback: string): string {
  return state.message ?? Object.values(state.fieldErrors)[0] ?? fallback;
}

/**
 * One WebAuthn ceremony from a hosted page: ask a server action for the options,
 * let the browser create or use the passkey, post the response to the verify
 * action, which signs in (redirect) or answers with a message. The ceremony runs
 * in the page, so its origin is the page's and the RP ID its host. Passkeys need
 * JavaScript: without it (or without WebAuthn) the page says so instead of
 * showing a button that does nothing.
 */
export function PasskeyCeremony(props: PasskeyCeremonyProps) {
  const { kind, options, verify, hidden, label, labels, variant = "secondary", block, autofill, children, separator, explainWithoutScript = true } = props;
  const supported = useWebAuthnSupport();
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<{ tone: "error" | "success"; text: string } | null>(null);

  async function ceremony(useBrowserAutofill: boolean): Promise<void> {
    if (!formRef.current) return;
    const form = new FormData(formRef.current);
    const started = await options(form);
    let response: unknown;
    try {
      if (kind === "register" && started.registration) response = await startRegistration({ optionsJSON: started.registration });
      else if (kind === "authenticate" && started.authentication) {
        response = await startAuthentication({ optionsJSON: started.authentication, useBrowserAutofill });
      } else {
        setOutcome({ tone: "error", text: stateMessage(started, labels.failed) });
        return;
      }
    } catch (error) {
      // The autofill request is cancelled whenever the button starts a ceremony of its own.
      if (useBrowserAutofill) return;
      setOutcome({ tone: "error", text: ceremonyErrorMessage(error, labels) });
      return;
    }
    form.set("response", JSON.stringify(response));
    const done = await verify(form);
    if (done.status === "error") setOutcome({ tone: "error", text: stateMessage(done, labels.failed) });
    else if (done.message) {
      setOutcome({ tone: "success", text: done.message });
      formRef.current?.reset();
    }
  }

  useEffect(() => {
    if (!autofill) return;
    let cancelled = false;
    void browserSupportsWebAuthnAutofill().then((available) => {
      if (available && !cancelled) void ceremony(true);
    });
    return () => {
      cancelled = true;
    };
    // Once per page: the autofill request stays open until used or replaced.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autofill]);

  if (supported === false) return explainWithoutScript ? <p className={styles.text}>{labels.unsupported}</p> : null;
  return (
    <>
      {explainWithoutScript ? (
        <noscript>
          <p className={styles.text}>{labels.needsJavaScript}</p>
        </noscript>
      ) : null}
      <form
        ref={formRef}
        hidden={supported === null}
        onSubmit={(event) => {
          event.preventDefault();
          setOutcome(null);
          startTransition(() => ceremony(false));
        }}
        className={styles.panel}
      >
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {separator ? <p className={styles.divider}>{separator}</p> : null}
        {children}
        <FormActions>
          <Button type="submit" variant={variant} block={block} disabled={pending} aria-busy={pending || undefined}>
            {label}
          </Button>
        </FormActions>
        <p role="alert" className={styles.error} tabIndex={-1}>
          {outcome?.tone === "error" ? outcome.text : null}
        </p>
        <p role="status" className={styles.note}>
          {outcome?.tone === "success" ? outcome.text : null}
        </p>
      </form>
    </>
  );
}
