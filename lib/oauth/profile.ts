/**
 * What Gatehouse keeps of a provider account, the same shape for every provider
 * type: OIDC claims and GitHub's API answers are both turned into this.
 */
export interface ProviderProfile {
  /** The provider's stable user id (OIDC `sub`, GitHub's numeric id as a string). */
  subject: string;
  /** Lower-cased. */
  email: string | null;
  /**
   * True only when the provider asserts it (OIDC `email_verified === true`, GitHub's
   * primary and verified address). Account linking trusts nothing weaker.
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

/** An address as given, lower-cased; anything that is not a plausible address is dropped. */
export function normalizeProviderEmail(value: unknown): string | null {
  const raw = text(value, 320)?.toLowerCase() ?? null;
  return raw && /^[^\s@]+@[^\s@]+$/.test(raw) ? raw : null;
}

/**
 * The profile of OpenID Connect claims (id_token merged with UserInfo). `sub` is
 * required; `email_verified` counts only as the boolean true, or the string "true"
 * from a provider documented to send booleans as strings (`stringBooleans`: Apple).
 */
export function profileFromClaims(claims: Record<string, unknown>, options: { stringBooleans?: boolean } = {}): ProviderProfile | null {
  const subject = text(claims.sub, 255);
  if (!subject) return null;
  const email = normalizeProviderEmail(claims.email);
  const asserted = claims.email_verified === true || (options.stringBooleans === true && claims.email_verified === "true");
  return {
    subject,
    email,
    emailVerified: email !== null && asserted,
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
  const email = primary ? normalizeProviderEmail(primary.email) : null;
  const name = text(user.name);
  const [firstName, ...rest] = name ? name.split(/\s+/) : [];
  return {
    subject: id,
    email,
    emailVerified: email !== null && primary?.verified === true,
    name,
    firstName: firstName ?? null,
    lastName: rest.length ? rest.join(" ") : null,
    picture: pictureUrl(user.avatar_url),
    username: text(user.login),
  };
}
