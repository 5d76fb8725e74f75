"use client";

import { ActionForm } from "@/components/ui/action-form";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { TextLink } from "@/components/ui/text-link";
import { createUserAction } from "@/lib/dashboard/actions/users";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { ResultToast } from "../result-toast";
import styles from "./users.module.css";

/** "Create user": email, names, an optional password; the answer links to the new user. */
export function CreateUserForm({ t, environmentId }: { t: DashboardMessages; environmentId: string }) {
  const copy = t.users.create;
  return (
    <ActionForm action={createUserAction} hidden={{ env: environmentId }} aria-label={copy.title}>
      {(state) => (
        <>
          <TextField name="email" type="email" label={copy.email} autoComplete="off" spellCheck={false} autoCapitalize="none" />
          <div className={styles.columns}>
            <TextField name="firstName" label={copy.firstName} autoComplete="off" />
            <TextField name="lastName" label={copy.lastName} autoComplete="off" />
          </div>
          <TextField name="password" type="password" label={copy.password} hint={copy.passwordHint} autoComplete="new-password" />
          <FormStatus errorsOnly />
          <ResultToast />
          {state.status === "success" && state.continueUrl ? (
            <p role="status">
              <TextLink href={state.continueUrl}>{copy.open}</TextLink>
            </p>
          ) : null}
          <SubmitButton>{copy.submit}</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
