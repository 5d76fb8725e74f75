import { LinkEmail } from "./components/link-email";
import { PREVIEW_BRAND, PREVIEW_ORIGIN } from "./components/preview-props";
import type { TemplateProps } from "./types";

/** The single-use download link for a data export (a copy of everything stored about the user). */
export default function DataExportReadyEmail(props: TemplateProps<"data_export_ready">) {
  return <LinkEmail {...props} section={(copy) => copy.data_export_ready} />;
}

DataExportReadyEmail.PreviewProps = {
  brand: PREVIEW_BRAND,
  locale: "en",
  url: `${PREVIEW_ORIGIN}/_svc/users/me/data-requests/preview/download?token=preview-token`,
  expiresInMinutes: 24 * 60,
} satisfies TemplateProps<"data_export_ready">;
