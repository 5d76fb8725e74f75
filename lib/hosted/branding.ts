import type { EnvironmentContext } from "../environments/context";

export interface Branding {
  applicationName: string;
  logoUrl: string | null;
  /** Buttons and links; the environment's colour, else Gatehouse indigo. */
  accent: string;
  /** Text drawn on the accent: black or white, whichever contrasts more (WCAG 2.x ratio). */
  onAccent: string;
  /** Link colour on the white card: the accent when it reaches 4.5:1 there, else near-black. */
  link: string;
}

const DEFAULT_ACCENT = "#4f46e5";

/** Gatehouse's own look, for pages drawn without an environment (unknown application, error page). */
export const NEUTRAL_BRANDING: Branding = { applicationName: "Gatehouse", logoUrl: null, accent: DEFAULT_ACCENT, onAccent: "#ffffff", link: DEFAULT_ACCENT };

function channel(hex: string): number {
  const value = parseInt(hex, 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(color: string): number {
  const [r, g, b] = [color.slice(1, 3), color.slice(3, 5), color.slice(5, 7)].map(channel);
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

export function brandingOf(environment: EnvironmentContext): Branding {
  const { applicationName, logoUrl, accentColor } = environment.settings.branding;
  const accent = accentColor ?? DEFAULT_ACCENT;
  const luminance = relativeLuminance(accent);
  // Contrast against white is 1.05/(L+0.05), against black (L+0.05)/0.05: pick the larger.
  const onAccent = 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? "#ffffff" : "#111111";
  const link = 1.05 / (luminance + 0.05) >= 4.5 ? accent : "#1f2937";
  return { applicationName, logoUrl, accent, onAccent, link };
}
