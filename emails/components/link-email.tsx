import type { Locale } from "@/lib/email/types";
import type { EmailCopy, LinkEmailCopy } from "../copy";
import type { EmailBrand } from "../types";
import { ActionButton } from "./action-button";
import { OneTimeEmail } from "./one-time-email";

/** A one-time email built around a link button. */
export function LinkEmail(props: {
  brand: EmailBrand;
  locale: Locale;
  url: string;
  expiresInMinutes: number;
  section: (copy: EmailCopy) => LinkEmailCopy;
}) {
  return (
    <OneTimeEmail
      {...props}
      action={(copy, t) => <ActionButton href={props.url} label={t.button} accent={props.brand.accentColor} copy={copy} />}
    />
  );
}
