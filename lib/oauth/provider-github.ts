import * as oidc from "openid-client";
import type { ResolvedProvider } from "./provider-client";
import { profileFromGitHub, type GitHubEmail, type GitHubUser, type ProviderProfile } from "./profile";

/** github.com's REST API has its own host; a GitHub Enterprise Server serves it under `/api/v3`. */
function apiBase(provider: ResolvedProvider): string {
  const base = new URL(provider.issuer);
  return base.hostname === "github.com" ? "https://api.github.com" : `${provider.issuer.replace(/\/+$/, "")}/api/v3`;
}

async function getJson(config: oidc.Configuration, accessToken: string, url: string, absent?: unknown): Promise<unknown> {
  const headers = new Headers({ accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" });
  const response = await oidc.fetchProtectedResource(config, accessToken, new URL(url), "GET", undefined, headers);
  if (absent !== undefined && (response.status === 403 || response.status === 404)) return absent;
  if (!response.ok) throw new Error(`GitHub answered ${response.status} for ${new URL(url).pathname}`);
  return response.json();
}

/**
 * The profile of a GitHub account: `/user` for the id, login and name, `/user/emails`
 * for the primary address and whether GitHub verified it (scope `user:email`).
 */
export async function gitHubProfile(config: oidc.Configuration, provider: ResolvedProvider, accessToken: string): Promise<ProviderProfile | null> {
  const base = apiBase(provider);
  // Without the `user:email` scope (or a GitHub App's email permission) GitHub refuses
  // `/user/emails` with 403: the account signs in without an address.
  const [user, emails] = await Promise.all([getJson(config, accessToken, `${base}/user`), getJson(config, accessToken, `${base}/user/emails`, [])]);
  if (!user || typeof user !== "object") return null;
  return profileFromGitHub(user as GitHubUser, Array.isArray(emails) ? (emails as GitHubEmail[]) : []);
}
