"use client";

import type { ReactNode } from "react";
import { ActionForm } from "@/components/ui/action-form";
import { ButtonLink } from "@/components/ui/button-link";
import { FormActions } from "@/components/ui/form-actions";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import type { FormAction, FormState, TotpEnrollment } from "@/lib/hosted/form-state";
import type { Messages } from "@/lib/hosted/i18n/messages";
import { SixDigitCodeField } from "../six-digit-code-field";
import { RecoveryCodes, type RecoveryCodesFile } from "./recovery-codes";
import styles from "./mfa.module.css";

export interface TotpSetupLabels {
  setup: Messages["totpSetup"];
  recovery: Messages["recoveryCodes"];
  codeLabel: string;
  /** The QR code's text alternative, already filled in with the application's name. */
  qrAlt: string;
}

interface TotpSetupProps {
  /** One server action for every step, told apart by the pressed button's `intent` (start, confirm, cancel, done). */
  action: FormAction;
  hidden: Record<string, string>;
  labels: TotpSetupLabels;
  file: RecoveryCodesFile;
  /** What the form shows before a setup starts or after it ends: the start button, or regenerate. */
  idle: ReactNode;
  /** The level of the recovery codes' heading: one below the card's. */
  headingLevel: 2 | 3;
  "aria-label": string;
}

/** The key in groups of four, as authenticator apps show keys; spaces are ignored when typed. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

/**
 * Turning on an authenticator app, step by step in one form: start (the server
 * makes a secret), scan the QR code or type the key, confirm with a code, then
 * the recovery codes once. Each step is the answer to the previous post, so it
 * works without JavaScript. While confirming, the secret and QR code ride along
 * in hidden fields: the server keeps only the sealed secret, and a wrong code
 * must not make the person scan a new one.
 */
export function TotpSetup({ action, hidden, labels, file, idle, headingLevel, ...rest }: TotpSetupProps) {
  const step = (state: FormState) => {
    if (state.recoveryCodes) {
      const done = state.continueUrl ? (
        <ButtonLink href={state.continueUrl}>{labels.recovery.saved}</ButtonLink>
      ) : (
        <SubmitButton name="intent" value="done">
          {labels.recovery.saved}
        </SubmitButton>
      );
      return (
        <>
          <FormStatus />
          <RecoveryCodes codes={state.recoveryCodes} labels={labels.recovery} file={file} done={done} headingLevel={headingLevel} />
        </>
      );
    }
    if (state.totpEnrollment) return <ConfirmStep enrollment={state.totpEnrollment} labels={labels} firstShown={state.status !== "error"} />;
    return (
      <>
        {idle}
        <FormStatus />
      </>
    );
  };
  return (
    <ActionForm action={action} hidden={hidden} aria-label={rest["aria-label"]}>
      {step}
    </ActionForm>
  );
}

function ConfirmStep({ enrollment, labels, firstShown }: { enrollment: TotpEnrollment; labels: TotpSetupLabels; firstShown: boolean }) {
  const copy = labels.setup;
  return (
    <div className={styles.panel}>
      {/* The first instruction takes focus when the step appears; after a wrong code the code field does. */}
      <p className={styles.text} tabIndex={-1} autoFocus={firstShown}>
        {copy.scan}
      </p>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data: URI made on the server; nothing for the image optimizer */}
      <img src={enrollment.qrCodeSvg} alt={labels.qrAlt} width={192} height={192} className={styles.qr} />
      <p className={styles.text}>{copy.secret}</p>
      <p className={styles.secret} data-testid="totp-secret">
        <code>{groupedSecret(enrollment.secret)}</code>
      </p>
      <p className={styles.text}>{copy.enterCode}</p>
      <input type="hidden" name="secret" value={enrollment.secret} />
      <input type="hidden" name="otpauthUri" value={enrollment.otpauthUri} />
      <input type="hidden" name="qrCodeSvg" value={enrollment.qrCodeSvg} />
      <SixDigitCodeField label={labels.codeLabel} />
      <FormStatus />
      <FormActions>
        <SubmitButton name="intent" value="confirm">
          {copy.confirm}
        </SubmitButton>
        <SubmitButton name="intent" value="cancel" variant="secondary">
          {copy.cancel}
        </SubmitButton>
      </FormActions>
    </div>
  );
}
