import { SecurityNoticeEmail } from "./components/security-notice-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** Tells the owner an operator reset their second factors: a support desk talked into it by someone else is noticed. */
export default function SecondFactorsResetEmail(props: TemplateProps<"second_factors_reset">) {
  return <SecurityNoticeEmail {...props} section={(copy) => copy.second_factors_reset} />;
}

SecondFactorsResetEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  occurredAt: "2026-11-22T16:48:00.000Z",
  resetPasswordUrl: `${PREVIEW_ORIGIN}/forgot-password`,
} satisfies TemplateProps<"second_factors_reset">;
