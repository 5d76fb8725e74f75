import { domainToASCII } from "node:url";
import { z } from "zod";

/**
 * One character of an RFC 5321 Dot-string atom (§4.1.2 `atext`), or any non-ASCII
 * character RFC 6531 allows in a local part, except whitespace, controls, invisible
 * format characters (zero-width spaces, bidi overrides: two addresses that look
 * alike) and lone surrogates.
 */
const ATEXT = String.raw`(?:[A-Za-z0-9!#$%&'*+\-/=?^_\x60{|}~]|[^\x00-\x7F\s\p{Cc}\p{Cf}\p{Cs}\p{Cn}])`;

/**
 * A local part as a Dot-string: atoms joined by single dots. Quoted strings,
 * comments and the specials `()<>[]:;@\,"` are refused, so no transport, header
 * parser or mail client can read a stored address as a list, a display name or a
 * second recipient (`a@x.com,b@y.com`, `"a,b"@x.com`, `a(c)@x.com`, `<a@x.com>`).
 */
const DOT_STRING = new RegExp(String.raw`^${ATEXT}+(?:\.${ATEXT}+)*$`, "u");

/** A host name after IDNA: LDH labels of 1-63 characters, at least two, the last not all digits (that is an IP). */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** RFC 5321 §4.5.3.1.1: a local part holds at most 64 octets. */
const MAX_LOCAL_OCTETS = 64;

/**
 * An email address as Gatehouse stores it: an RFC 5321 mailbox (see DOT_STRING
 * and HOST_NAME), trimmed, lower-cased, domain in ASCII (IDNA), so `Ann@Bücher.de`
 * and `ann@xn--bcher-kva.de` are one identity. Unicode local parts (RFC 6531) are
 * accepted. Every email input (sign-up, sign-in, reset, Server API users, added
 * addresses) goes through this one schema.
 */
export const emailSchema = z
  .string()
  .trim()
  .max(254, "must be at most 254 characters")
  .transform((value, ctx) => {
    const normalized = normalizeEmail(value);
    const problem = normalized === null ? "must be a valid email address" : mailboxProblem(normalized);
    if (normalized === null || problem) {
      ctx.addIssue({ code: "custom", message: problem ?? "must be a valid email address" });
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

/** Why a normalized address is not a plain mailbox, or null when it is one. */
function mailboxProblem(address: string): string | null {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  // NFKC as well: a system that folds compatibility characters must not find a
  // special there either (a fullwidth comma or at sign becomes "," or "@").
  if (!DOT_STRING.test(local) || !DOT_STRING.test(local.normalize("NFKC"))) {
    return "must be a plain mailbox: no spaces, quotes, comments or any of ( ) < > [ ] : ; @ \\ , in the part before the @";
  }
  if (Buffer.byteLength(local, "utf8") > MAX_LOCAL_OCTETS) return `must have at most ${MAX_LOCAL_OCTETS} bytes before the @`;
  if (!HOST_NAME.test(address.slice(at + 1))) return "has a domain that is not a valid host name";
  return null;
}
