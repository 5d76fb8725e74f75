import type { EmailBrand } from "../types";

/** Sample branding for each template's `PreviewProps` (React Email's convention for previews). */
export const PREVIEW_BRAND: EmailBrand = {
  id: "00000000-0000-4000-8000-000000000000",
  applicationName: "Acme",
  accentColor: "#0f766e",
  logoUrl: null,
};

export const PREVIEW_ORIGIN = "https://auth.acme.example";
