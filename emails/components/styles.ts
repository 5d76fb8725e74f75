import type { CSSProperties } from "react";

/** Used when an environment has no accent colour of its own. */
export const DEFAULT_ACCENT = "#4f46e5";

/**
 * The accent colour goes into inline CSS, so only a plain hex colour is let through
 * (settings validate it too; this keeps a bad row from injecting CSS).
 */
export function accentColor(value: string | null): string {
  return value && /^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$/.test(value) ? value : DEFAULT_ACCENT;
}

// System fonts only: mail clients block remote fonts, and the emails load nothing from a CDN.
export const fontFamily =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Helvetica, Arial, sans-serif";

export const paragraph: CSSProperties = { fontSize: "15px", lineHeight: "24px", color: "#1f2937", margin: "0 0 16px" };

export const muted: CSSProperties = { fontSize: "13px", lineHeight: "20px", color: "#6b7280", margin: "0 0 12px" };
