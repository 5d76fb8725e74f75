import { calculatePKCECodeChallenge, randomNonce, randomPKCECodeVerifier, randomState } from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import { seal } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { authorizationUrl, exchangeCallback, loadEnabledProvider, type ResolvedProvider } from "@/lib/oauth/provider-client";
import { startCountingServer } from "../../helpers/counting-server";
import { newEnvironment } from "../../helpers/fixtures";
import { startGitHubFake, type GitHubFake } from "../../helpers/github-fake";
import { withMode } from "../../helpers/mode";

const REDIRECT_URI = "http://acme.localhost:3000/_svc/auth/oauth2/github/callback";

let github: GitHubFake;
let provider: ResolvedProvider;

beforeAll(async () => {
  github = await startGitHubFake();
  const { environmentId } = await newEnvironment();
  // A GitHub Enterprise Server is named by its base URL; the fake is one on loopback.
  await getDb()
    .insert(oauthProviders)
    .values({ environmentId, id: "github", type: "github", name: "GitHub", clientId: github.clientId, clientSecretSealed: await seal(github.clientSecret), issuer: github.baseUrl });
  const loaded = await loadEnabledProvider(getDb(), { id: environmentId }, "github");
  if (!loaded) throw new Error("provider not loaded");
  provider = loaded;
});

afterAll(() => github.close());

function flowSecrets() {
  return { redirectUri: REDIRECT_URI, state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("oauth_failed");
  return error as AppError;
}

describe("the GitHub preset (OAuth2 + REST API)", () => {
  it("authorizes at /login/oauth/authorize with PKCE S256 and state, and no nonce (GitHub is not OpenID)", async () => {
    const flow = flowSecrets();
    const url = await authorizationUrl(provider, flow);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.baseUrl}/login/oauth/authorize`);
    expect(url.searchParams.get("client_id")).toBe(github.clientId);
    expect(url.searchParams.get("scope")).toBe("read:user user:email");
    expect(url.searchParams.get("state")).toBe(flow.state);
    expect(url.searchParams.get("code_challenge")).toBe(await calculatePKCECodeChallenge(flow.codeVerifier));
    expect(url.searchParams.has("nonce")).toBe(false);
  });

  it("reads the numeric id, login, name and the primary address GitHub verified; the public profile email is ignored", async () => {
    const flow = flowSecrets();
    const currentUrl = await github.signIn(await authorizationUrl(provider, flow), github.users.verified.login);
    const profile = await exchangeCallback(provider, { ...flow, currentUrl });
    const primary = github.users.verified.emails[0]?.email ?? "";
    expect(profile).toEqual({
      subject: String(github.users.verified.id),
      email: primary.toLowerCase(),
      emailVerified: true,
      name: "Mona Lisa Octocat",
      firstName: "Mona",
      lastName: "Lisa Octocat",
      picture: `https://avatars.example/u/${github.users.verified.id}`,
      username: github.users.verified.login,
    });
    const sent = github.tokenRequests.at(-1);
    expect(sent?.get("code_verifier")).toBe(flow.codeVerifier);
    expect(sent?.get("redirect_uri")).toBe(REDIRECT_URI);
  });

  it("an unverified primary address is not verified, even when a secondary one is", async () => {
    const flow = flowSecrets();
    const currentUrl = await github.signIn(await authorizationUrl(provider, flow), github.users.unverified.login);
    const profile = await exchangeCallback(provider, { ...flow, currentUrl });
    expect(profile).toMatchObject({ subject: String(github.users.unverified.id), email: github.users.unverified.emails[0]?.email, emailVerified: false });
  });

  it("no address at all: email null, not verified", async () => {
    const user = github.addUser({ emails: [] });
    const flow = flowSecrets();
    const currentUrl = await github.signIn(await authorizationUrl(provider, flow), user.login);
    expect(await exchangeCallback(provider, { ...flow, currentUrl })).toMatchObject({ subject: String(user.id), email: null, emailVerified: false });
  });

  it("without the email scope (/user/emails answers 403) the account still signs in, without an address", async () => {
    const user = github.addUser({ emails: [{ email: "hidden@github.example", primary: true, verified: true }], emailScope: false, publicEmail: "shown@elsewhere.example" });
    const flow = flowSecrets();
    const currentUrl = await github.signIn(await authorizationUrl(provider, flow), user.login);
    expect(await exchangeCallback(provider, { ...flow, currentUrl })).toMatchObject({ subject: String(user.id), email: null, emailVerified: false });
  });

  it("refuses a wrong state, a wrong PKCE verifier, a replayed code (GitHub's 200-with-error answers), and passes on access_denied", async () => {
    const a = flowSecrets();
    const first = await github.signIn(await authorizationUrl(provider, a), github.users.verified.login);
    const requestsBefore = github.tokenRequests.length;
    await failure(exchangeCallback(provider, { ...a, state: randomState(), currentUrl: first }));
    expect(github.tokenRequests.length, "a wrong state never reaches the token endpoint").toBe(requestsBefore);

    const b = flowSecrets();
    const second = await github.signIn(await authorizationUrl(provider, b), github.users.verified.login);
    await failure(exchangeCallback(provider, { ...b, codeVerifier: randomPKCECodeVerifier(), currentUrl: second }));

    const c = flowSecrets();
    const third = await github.signIn(await authorizationUrl(provider, c), github.users.verified.login);
    await exchangeCallback(provider, { ...c, currentUrl: third });
    await failure(exchangeCallback(provider, { ...c, currentUrl: third }));

    const d = flowSecrets();
    const denied = await github.signIn(await authorizationUrl(provider, d), github.users.verified.login, { deny: true });
    expect((await failure(exchangeCallback(provider, { ...d, currentUrl: denied }))).properties).toEqual({ providerError: "access_denied" });
  });

  it("a wrong client secret is refused by GitHub and fails as oauth_failed", async () => {
    const wrong: ResolvedProvider = { ...provider, clientSecretSealed: await seal("not-the-secret") };
    const flow = flowSecrets();
    const currentUrl = await github.signIn(await authorizationUrl(wrong, flow), github.users.verified.login);
    await failure(exchangeCallback(wrong, { ...flow, currentUrl }));
  });

  it("in production the code and client secret are never posted to a GitHub base URL on a loopback address (SSRF)", async () => {
    const witness = await startCountingServer();
    try {
      const loopback: ResolvedProvider = { ...provider, issuer: `https://127.0.0.1:${witness.port}`, clientSecretSealed: await seal(github.clientSecret) };
      const flow = flowSecrets();
      const currentUrl = new URL(`${REDIRECT_URI}?code=a-code&state=${flow.state}`);
      await withMode("production", () => failure(exchangeCallback(loopback, { ...flow, currentUrl })));
      expect(witness.connections).toBe(0);
    } finally {
      await witness.close();
    }
  });
});
