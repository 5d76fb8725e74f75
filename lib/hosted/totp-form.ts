import { formText, type TotpEnrollment } from "./form-state";

/** People type codes with spaces ("123 456", as apps group them); the code itself has none. */
export function postedCode(form: FormData): string {
  return formText(form, "code").replace(/\s+/g, "");
}

/**
 * The setup being confirmed, posted back from the confirm step's hidden fields so
 * that a wrong code shows the same QR code and key again. It is only ever shown to
 * the person who posted it, and only in the shapes the setup produced.
 */
export function postedEnrollment(form: FormData): TotpEnrollment | undefined {
  const enrollment = { secret: formText(form, "secret"), otpauthUri: formText(form, "otpauthUri"), qrCodeSvg: formText(form, "qrCodeSvg") };
  const valid =
    /^[A-Z2-7]{16,128}=*$/.test(enrollment.secret) &&
    enrollment.otpauthUri.startsWith("otpauth://totp/") &&
    enrollment.otpauthUri.length <= 2048 &&
    enrollment.qrCodeSvg.startsWith("data:image/svg+xml") &&
    enrollment.qrCodeSvg.length <= 200_000;
  return valid ? enrollment : undefined;
}
