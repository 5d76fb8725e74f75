"use client";

import { useFormStatus } from "react-dom";
import { Button, type ButtonProps } from "./button";

/** A submit button that reports its form's pending state (and ignores double clicks meanwhile). */
export function SubmitButton({ children, ...props }: Omit<ButtonProps, "type">) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" aria-busy={pending || undefined} disabled={pending || props.disabled} {...props}>
      {children}
    </Button>
  );
}
