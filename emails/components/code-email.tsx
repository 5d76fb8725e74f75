import type { Locale } from "@/lib/email/types";
import type { CodeEmailCopy, EmailCopy } from "../copy";
import type { EmailBrand } from "../types";
import { CodeBox } from "./code-box";
import { OneTimeEmail } from "./one-time-email";

/** A one-time email built around a 6-digit code. */
export function CodeEmail(props: {
  brand: EmailBrand;
  locale: Locale;
  code: string;
  expiresInMinutes: number;
  section: (copy: EmailCopy) => CodeEmailCopy;
}) {
  return <OneTimeEmail {...props} action={() => <CodeBox code={props.code} />} />;
}
