import { describe, expect, it } from "vitest";
import { renderEmail } from "@/lib/email/render-email";
import type { EmailTemplateName, EmailTemplates, Locale, OutgoingEmail } from "@/lib/email/types";

const CODE = "048213";
// Query strings with &, percent-escapes and a nested URL: the plain-text converter
// must print them exactly as given, unwrapped, however long they are.
const LINK = "https://auth.acme.example/_svc/users/me/email-addresses/verify?token=tok_0123456789abcdefghijklmnopqrstuvwxyz&redirect_url=https%3A%2F%2Fapp.acme.example%2Fsettings%3Ftab%3Demails&x=%C3%A6";

const PROPS: { [T in EmailTemplateName]: EmailTemplates[T] } = {
  sign_up_code: { code: CODE, expiresInMinutes: 10 },
  account_exists: { signInUrl: "https://auth.acme.example/sign-in?redirect_url=https%3A%2F%2Fapp.acme.example%2F", resetPasswordUrl: "https://auth.acme.example/forgot-password?email_hint=1&source=email" },
  password_reset_code: { code: CODE, expiresInMinutes: 15 },
  password_changed: { changedAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  email_added: { email: "ada.work@example.com", occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  primary_email_changed: { email: "ada.work@example.com", occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  mfa_enabled: { occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  mfa_disabled: { occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  recovery_codes_regenerated: { occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  passkey_removed: { occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  second_factors_reset: { occurredAt: "2026-11-22T16:48:00.000Z", resetPasswordUrl: "https://auth.acme.example/forgot-password" },
  passkey_added: { passkeyName: "MacBook Touch ID", occurredAt: "2026-11-22T16:48:00.000Z", accountUrl: "https://auth.acme.example/account" },
  account_connected: { providerName: "GitHub", occurredAt: "2026-11-22T16:48:00.000Z", accountUrl: "https://auth.acme.example/account" },
  account_disconnected: { providerName: "GitHub", occurredAt: "2026-11-22T16:48:00.000Z", accountUrl: "https://auth.acme.example/account" },
  email_verification_link: { url: LINK, expiresInMinutes: 1440 },
  account_deletion_link: { url: `${LINK}&purpose=delete`, expiresInMinutes: 60 },
  data_export_ready: { url: `${LINK}&purpose=export`, expiresInMinutes: 24 * 60 },
  organization_invitation: { organizationName: "Nordlys Research", inviterName: "Ada Lovelace", roleName: "Admin", url: `${LINK}&ticket=inv_1`, expiresInDays: 7 },
};

const TEMPLATES = Object.keys(PROPS) as EmailTemplateName[];
const CODE_TEMPLATES: EmailTemplateName[] = ["sign_up_code", "password_reset_code"];
const LOCALES: Locale[] = ["en", "da"];
const BRAND = { id: "3c7d1f5e-8a4b-4c2d-9e1f-0a1b2c3d4e5f", applicationName: "Acme Cloud", accentColor: "#0f766e", logoUrl: null };

function message<T extends EmailTemplateName>(template: T, locale: Locale, environment: OutgoingEmail["environment"] = BRAND): OutgoingEmail<T> {
  return { template, locale, to: "ada@example.com", environment, props: PROPS[template] };
}

/** Every href in the HTML part, entity-decoded. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((match) => (match[1] ?? "").replaceAll("&amp;", "&"));
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `token` appears delimited by whitespace or line boundaries, not glued to other text. */
const standalone = (token: string) => new RegExp(`(^|\\s)${escape(token)}(\\s|$)`, "m");

describe("email templates", () => {
  for (const template of TEMPLATES) {
    for (const locale of LOCALES) {
      it(`${template} (${locale}) renders HTML and text with the brand, absolute links and standalone codes`, async () => {
        const rendered = await renderEmail(message(template, locale));

        expect(rendered.subject.length).toBeGreaterThan(0);
        expect(rendered.subject).not.toMatch(/[\r\n]/);
        expect(rendered.html).toContain(`lang="${locale}"`);
        expect(rendered.html).toContain("Acme Cloud");
        expect(rendered.html).toContain("#0f766e");
        expect(rendered.text).toContain("Acme Cloud");

        if (CODE_TEMPLATES.includes(template)) {
          expect(rendered.text).toMatch(standalone(CODE));
          expect(rendered.text.split("\n").map((line) => line.trim())).toContain(CODE);
        } else {
          expect(rendered.text).not.toMatch(/\b\d{6}\b/);
        }

        const links = hrefs(rendered.html);
        for (const link of links) {
          expect(link).toMatch(/^https?:\/\//);
          expect(rendered.text, `text part should carry ${link}`).toMatch(standalone(link));
        }
        for (const [key, value] of Object.entries(PROPS[template])) {
          if (/url$/i.test(key)) {
            expect(links).toContain(value);
            expect(rendered.text).toMatch(standalone(String(value)));
          }
        }
        // Nothing relative and nothing fetched from elsewhere: no scripts, stylesheets or web fonts.
        expect(rendered.text).not.toMatch(/(^|\s)\/[\w_]/m);
        expect(rendered.html).not.toMatch(/<script|<link|@import|fonts\.googleapis|url\(/i);
      });
    }

    it(`${template} reads differently in Danish than in English`, async () => {
      const en = await renderEmail(message(template, "en"));
      const da = await renderEmail(message(template, "da"));
      expect(da.subject).not.toBe(en.subject);
      expect(da.text).not.toBe(en.text);
      // No English sentence survives into the Danish text (names and URLs aside).
      const englishLines = en.text.split("\n").filter((line) => /[a-z]{3,} [a-z]{3,}/.test(line) && !line.includes("Acme Cloud") && !/https?:/.test(line));
      for (const line of englishLines) expect(da.text).not.toContain(line);
      expect(da.text).toMatch(/[æøå]/);
    });
  }

  it("shows the environment's logo when it has one, and never in the text part", async () => {
    const logoUrl = "https://cdn.acme.example/logo.png";
    const rendered = await renderEmail(message("sign_up_code", "en", { ...BRAND, logoUrl }));
    expect(rendered.html).toContain(`src="${logoUrl}"`);
    expect(rendered.html).toContain('alt="Acme Cloud"');
    expect(rendered.text).not.toContain(logoUrl);
    expect((await renderEmail(message("sign_up_code", "en"))).html).not.toContain("<img");
  });

  it("falls back to the default accent colour instead of injecting a malformed one into CSS", async () => {
    const rendered = await renderEmail(message("email_verification_link", "en", { ...BRAND, accentColor: "red;background:url(https://evil.example/x)" }));
    expect(rendered.html).not.toContain("evil.example");
    expect(rendered.html).toContain("#4f46e5");
  });

  it("names the inviter when known, and still reads well without one", async () => {
    const withInviter = await renderEmail(message("organization_invitation", "da"));
    expect(withInviter.subject).toBe("Ada Lovelace har inviteret dig til at blive medlem af Nordlys Research på Acme Cloud");
    expect(withInviter.text).toContain("Du bliver medlem som Admin.");
    const anonymous = await renderEmail({ ...message("organization_invitation", "en"), props: { ...PROPS.organization_invitation, inviterName: null } });
    expect(anonymous.subject).toBe("You have been invited to join Nordlys Research on Acme Cloud");
    expect(anonymous.text).toContain("7 days");
  });

  it("keeps user-supplied names from breaking the subject into extra header lines", async () => {
    const rendered = await renderEmail({
      ...message("organization_invitation", "en"),
      props: { ...PROPS.organization_invitation, organizationName: "Evil\r\nBcc: victim@example.com" },
    });
    expect(rendered.subject).not.toMatch(/[\r\n]/);
  });

  it("states durations in the largest whole unit, in each language", async () => {
    expect((await renderEmail(message("email_verification_link", "en"))).text).toContain("expires in 1 day");
    expect((await renderEmail(message("email_verification_link", "da"))).text).toContain("udløber om 1 dag");
    expect((await renderEmail(message("sign_up_code", "da"))).text).toContain("udløber om 10 minutter");
    expect((await renderEmail(message("account_deletion_link", "en"))).text).toContain("expires in 1 hour");
  });

  it("formats the password change time in the reader's language, in UTC", async () => {
    expect((await renderEmail(message("password_changed", "en"))).text).toContain("November 22, 2026");
    expect((await renderEmail(message("password_changed", "da"))).text).toContain("22. november 2026");
  });

  it("the address notices name the address and the time, in each language", async () => {
    for (const template of ["email_added", "primary_email_changed"] as const) {
      const en = await renderEmail(message(template, "en"));
      expect(en.text).toContain("ada.work@example.com");
      expect(en.text).toContain("November 22, 2026");
      const da = await renderEmail(message(template, "da"));
      expect(da.text).toContain("ada.work@example.com");
      expect(da.text).toContain("22. november 2026");
    }
    expect((await renderEmail(message("email_added", "en"))).subject).toBe("An email address was added to your Acme Cloud account");
    expect((await renderEmail(message("primary_email_changed", "da"))).subject).toBe("Den primære e-mailadresse for din konto hos Acme Cloud er blevet ændret");
  });

  it("the two-step verification notices say what changed and when, in each language", async () => {
    const enabled = await renderEmail(message("mfa_enabled", "en"));
    expect(enabled.subject).toBe("Two-step verification is on for your Acme Cloud account");
    expect(enabled.text).toContain("November 22, 2026");
    expect(enabled.text).toContain("recovery codes");
    expect((await renderEmail(message("mfa_disabled", "en"))).subject).toBe("Two-step verification was turned off for your Acme Cloud account");
    const disabledDa = await renderEmail(message("mfa_disabled", "da"));
    expect(disabledDa.subject).toBe("Totrinsbekræftelse er slået fra for din konto hos Acme Cloud");
    expect(disabledDa.text).toContain("22. november 2026");
    const regenerated = await renderEmail(message("recovery_codes_regenerated", "da"));
    expect(regenerated.subject).toBe("Nye gendannelseskoder til din konto hos Acme Cloud");
    expect(regenerated.text).toContain("De tidligere koder virker ikke længere.");
    expect((await renderEmail(message("passkey_removed", "en"))).subject).toBe("A passkey was removed from your Acme Cloud account");
    const reset = await renderEmail(message("second_factors_reset", "da"));
    expect(reset.subject).toBe("Totrinsbekræftelse er blevet nulstillet for din konto hos Acme Cloud");
    expect(reset.text).toContain("alle sessioner er logget ud");
  });

  it("refuses a relative link: a mail client cannot resolve it", async () => {
    await expect(
      renderEmail({ ...message("email_verification_link", "en"), props: { url: "/verify?token=x", expiresInMinutes: 10 } }),
    ).rejects.toThrow(/absolute/);
    await expect(
      renderEmail({ ...message("email_verification_link", "en"), props: { url: "javascript:alert(1)", expiresInMinutes: 10 } }),
    ).rejects.toThrow(/absolute/);
  });
});
