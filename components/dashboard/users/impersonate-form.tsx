"use client";

import { useActionState, useId } from "react";
import { Button } from "@/components/ui/button";
import { FormContext } from "@/components/ui/form-context";
import { FormStatus } from "@/components/ui/form-status";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { impersonateUserAction } from "@/lib/dashboard/actions/users";
import type { DashboardMessages } from "@/lib/dashboard/i18n/messages";
import { IDLE_STATE } from "@/lib/hosted/form-state";
import { format } from "@/lib/hosted/i18n/messages";
import field from "@/components/ui/field.module.css";
import form from "@/components/ui/form.module.css";

/**
 * "Impersonate": the first form mints a one-time token for the signed-in operator
 * (errors in place: a banned or deleted user); its answer is a second form that
 * posts the token to the environment's hosted landing in a new tab (a button press,
 * so no popup blocker stops it; without JavaScript the same two steps work). The
 * token is only ever in a POST body. The new tab gets no `window.opener`
 * (rel="noopener": the landing is the environment's frontend host, a page the
 * dashboard does not control), and the button names the origin it posts to, so the
 * operator sees where their token goes before sending it. Not `noreferrer`: under it
 * the browser sends `Origin: null`, which the landing's Origin check rightly refuses.
 */
export function ImpersonateForm({ t, environmentId, userId }: { t: DashboardMessages; environmentId: string; userId: string }) {
  const [state, action, pending] = useActionState(impersonateUserAction, IDLE_STATE);
  const copy = t.users.impersonate;
  const destinationId = useId();
  return (
    <FormContext value={{ state, pending }}>
      <form action={action} noValidate className={form.form} aria-label={copy.title}>
        <input type="hidden" name="env" value={environmentId} />
        <input type="hidden" name="userId" value={userId} />
        <TextField name="reason" label={copy.reason} hint={copy.reasonHint} autoComplete="off" maxLength={500} />
        <FormStatus />
        <div>
          <SubmitButton variant="secondary">{copy.submit}</SubmitButton>
        </div>
      </form>
      {state.status === "success" && state.handoff ? (
        <form method="post" action={state.handoff.action} target="_blank" rel="noopener" className={form.form}>
          {Object.entries(state.handoff.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <p className={field.hint}>{copy.openHint}</p>
          <div>
            <Button type="submit" autoFocus aria-describedby={destinationId}>
              {copy.open}
            </Button>
          </div>
          <p id={destinationId} className={field.hint}>
            {format(copy.opensAt, { origin: new URL(state.handoff.action).origin })}
          </p>
        </form>
      ) : null}
    </FormContext>
  );
}
