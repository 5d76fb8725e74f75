import { CodeEmail } from "./components/code-email";
import { PREVIEW_BRAND } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** The 6-digit code that confirms a sign-up. */
export default function SignUpCodeEmail(props: TemplateProps<"sign_up_code">) {
  return <CodeEmail {...props} section={(copy) => copy.sign_up_code} />;
}

SignUpCodeEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  code: "493027",
  expiresInMinutes: 10,
} satisfies TemplateProps<"sign_up_code">;
