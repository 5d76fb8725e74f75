import { z } from "zod";
import type { EnvironmentContext } from "./context";

export const publicEnvironmentSchema = z
  .object({
    id: z.uuid(),
    applicationName: z.string(),
    branding: z.object({ logoUrl: z.string().nullable(), accentColor: z.string().nullable(), defaultLocale: z.enum(["en", "da"]) }),
    signUp: z.object({
      enabled: z.boolean(),
      requireEmailVerification: z.boolean(),
      fields: z.array(z.string()).meta({ description: "Sign-up body fields the hosted form and SDKs show." }),
      captcha: z.object({ enabled: z.boolean(), provider: z.string(), siteKey: z.string().nullable() }),
    }),
    legal: z.object({ requireConsent: z.boolean(), termsUrl: z.string().nullable(), privacyUrl: z.string().nullable() }),
    passwordPolicy: z.object({ minLength: z.int(), maxLength: z.int() }),
    oauthProviders: z.array(z.string()),
    mfa: z.object({ required: z.boolean() }),
  })
  .meta({ id: "PublicEnvironment", description: "The settings an SDK needs; nothing secret." });

export const legalSchema = z
  .object({ requireConsent: z.boolean(), termsUrl: z.string().nullable(), privacyUrl: z.string().nullable() })
  .meta({ id: "Legal" });

export function toPublicEnvironment(environment: EnvironmentContext): z.output<typeof publicEnvironmentSchema> {
  const { branding, signUp, legal, passwordPolicy, mfa } = environment.settings;
  return {
    id: environment.id,
    applicationName: branding.applicationName,
    branding: { logoUrl: branding.logoUrl, accentColor: branding.accentColor, defaultLocale: branding.defaultLocale },
    signUp: {
      enabled: signUp.enabled,
      requireEmailVerification: signUp.requireEmailVerification,
      fields: ["email", "password", "name", ...(legal.requireConsent ? ["legalConsentAccepted"] : []), ...(signUp.captcha.enabled ? ["captchaToken"] : [])],
      captcha: { enabled: signUp.captcha.enabled, provider: signUp.captcha.provider, siteKey: signUp.captcha.siteKey },
    },
    legal: { ...legal },
    passwordPolicy: { minLength: passwordPolicy.minLength, maxLength: passwordPolicy.maxLength },
    oauthProviders: [],
    mfa: { required: mfa.required },
  };
}
