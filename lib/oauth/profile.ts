import { domainToUnicode } from "node:url";
import { emailSchema } from "../users/email";

/**
 * What Gatehouse keeps of a provider account, the same shape for every provider
 * type: OIDC claims and GitHub's API answers are both turned into this.
 */
export interface ProviderProfile {
  /** The provider's stable user id (OIDC `sub`, GitHub's numeric id as a string). */
  subject: string;
  /** Normalized like every address of ours (`emailSchema`); null when the provider's is not a plain mailbox. */
  email: string | null;
  /**
   * True only when the provider asserts it (OIDC `email_verified === true`, GitHub's
   * primary and verified address) for the very address we keep (see
   * `providerEmail`). Account linking trusts nothing weaker.
   */
  emailVerified: boolean;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  picture: string | null;
  username: string | null;
}

function text(value: unknown, max = 512): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

/** Only an http(s) picture URL is kept: a `javascript:` or `data:` URL must never reach an <img> or a profile. */
function pictureUrl(value: unknown): string | null {
  const raw = text(value, 2048);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Lower-cases A-Z only: the one case difference every mail system treats as no difference. */
function asciiLowerCase(value: string): string {
  return value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * A provider's address through the same normalization as our own (`emailSchema`:
 * NFC, lower case, IDNA domain, a plain RFC 5321 mailbox), or null when it is none
 * (`<a,b>@x.com` must never be stored as a verified primary and emailed later).
 *
 * `exact` says whether the provider's own spelling already is that address up to
 * ASCII case, with the domain as its A-label or U-label (`ann@bücher.de` is
 * `ann@xn--bcher-kva.de`: DNS only knows the A-label). Anything else reached our
 * form only through Unicode case folding or normalization, which the provider's
 * mail system need not share: `\u212Aen@x.com` (KELVIN SIGN) folds to `ken@x.com`,
 * yet what the provider verified is another mailbox. Such an address is kept, but
 * never trusted as verified.
 */
export function providerEmail(value: unknown): { address: string; exact: boolean } | null {
  const parsed = emailSchema.safeParse(value);
  if (!parsed.success || typeof value !== "string") return null;
  const address = parsed.data;
  const raw = asciiLowerCase(value.trim());
  const rawAt = raw.lastIndexOf("@");
  const at = address.lastIndexOf("@");
  const domain = address.slice(at + 1);
  const rawDomain = raw.slice(rawAt + 1);
  const exact = raw.slice(0, rawAt) === address.slice(0, at) && (rawDomain === domain || rawDomain === domainToUnicode(domain));
  return { address, exact };
}

/** The profile's address and whether it counts as verified: asserted by the provider, for exactly that address. */
function emailOf(value: unknown, asserted: boolean): Pick<ProviderProfile, "email" | "emailVerified"> {
  const email = providerEmail(value);
  return { email: email?.address ?? null, emailVerified: email !== null && email.exact && asserted };
}

/**
 * The profile of OpenID Connect claims (id_token merged with UserInfo). `sub` is
 * required; `email_verified` counts only as the boolean true, or the string "true"
 * from a provider documented to send booleans as strings (`stringBooleans`: Apple).
 */
export function profileFromClaims(claims: Record<string, unknown>, options: { stringBooleans?: boolean } = {}): ProviderProfile | null {
  const subject = text(claims.sub, 255);
  if (!subject) return null;
  const asserted = claims.email_verified === true || (options.stringBooleans === true && claims.email_verified === "true");
  return {
    subject,
    ...emailOf(claims.email, asserted),
    name: text(claims.name),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
    picture: pictureUrl(claims.picture),
    username: text(claims.preferred_username) ?? text(claims.nickname),
  };
}

export interface GitHubUser {
  id?: unknown;
  login?: unknown;
  name?: unknown;
  avatar_url?: unknown;
}

export interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

/**
 * The profile of GitHub's `/user` and `/user/emails` answers. The address is the
 * primary one, verified only when GitHub says so; `/user`'s public email is not
 * trusted (a user can show any address there).
 */
export function profileFromGitHub(user: GitHubUser, emails: GitHubEmail[]): ProviderProfile | null {
  const id = typeof user.id === "number" && Number.isSafeInteger(user.id) ? String(user.id) : null;
  if (!id) return null;
  const primary = emails.find((entry) => entry.primary === true);
  const name = text(user.name);
  const [firstName, ...rest] = name ? name.split(/\s+/) : [];
  return {
    subject: id,
    ...emailOf(primary?.email, primary?.verified === true),
    name,
    firstName: firstName ?? null,
    lastName: rest.length ? rest.join(" ") : null,
    picture: pictureUrl(user.avatar_url),
    username: text(user.login),
  };
}
