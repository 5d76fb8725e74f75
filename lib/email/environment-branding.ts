import type { EnvironmentContext } from "../environments/context";
import type { Locale, OutgoingEmail } from "./types";

/** The branding an email carries, from the environment's settings. */
export function emailEnvironment(environment: EnvironmentContext): OutgoingEmail["environment"] {
  const { applicationName, accentColor, logoUrl } = environment.settings.branding;
  return { id: environment.id, applicationName, accentColor, logoUrl };
}

/** The user's locale, else the environment's default. */
export function emailLocale(environment: EnvironmentContext, userLocale: Locale | null | undefined): Locale {
  return userLocale ?? environment.settings.branding.defaultLocale;
}
