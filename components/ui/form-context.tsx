"use client";

import { createContext, useContext } from "react";
import type { FormState } from "@/lib/hosted/form-state";

export interface FormContextValue {
  state: FormState;
  pending: boolean;
}

/** The enclosing ActionForm's last answer, so fields can show their own error and echoed value. */
export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue | null {
  return useContext(FormContext);
}

/** The error, echoed value and first-invalid flag of one field. */
export function useField(name: string, defaultValue?: string) {
  const context = useFormContext();
  const error = context?.state.fieldErrors[name];
  const firstInvalid = context ? Object.keys(context.state.fieldErrors)[0] === name : false;
  const echoed = context?.state.values[name];
  return { error, firstInvalid, value: echoed ?? defaultValue, nonce: context?.state.nonce ?? 0 };
}
