import { domainToASCII } from "node:url";
import { z } from "zod";

/**
 * An email address as Gatehouse stores it: trimmed, lower-cased, domain in ASCII
 * (IDNA), so `Ann@Bücher.de` and `ann@xn--bcher-kva.de` are one identity.
 * Unicode local parts (RFC 6531) are accepted.
 */
export const emailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .pipe(z.email({ pattern: z.regexes.unicodeEmail, error: "must be a valid email address" }))
  .transform((value, ctx) => {
    const normalized = normalizeEmail(value);
    if (!normalized) {
      ctx.addIssue({ code: "custom", message: "has a domain that is not a valid host name" });
      return z.NEVER;
    }
    return normalized;
  })
  .meta({ format: "email", example: "ada@example.com" });

export function normalizeEmail(value: string): string | null {
  const at = value.lastIndexOf("@");
  const local = value.slice(0, at).normalize("NFC").toLowerCase();
  const domain = domainToASCII(value.slice(at + 1).toLowerCase());
  return at > 0 && domain ? `${local}@${domain}` : null;
}
