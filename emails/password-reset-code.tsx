import { CodeEmail } from "./components/code-email";
import { PREVIEW_BRAND } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** The 6-digit code that lets someone choose a new password. */
export default function PasswordResetCodeEmail(props: TemplateProps<"password_reset_code">) {
  return <CodeEmail {...props} section={(copy) => copy.password_reset_code} />;
}

PasswordResetCodeEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  code: "810364",
  expiresInMinutes: 15,
} satisfies TemplateProps<"password_reset_code">;
