import { randomBytes } from "node:crypto";
import { calculatePKCECodeChallenge, randomNonce, randomPKCECodeVerifier, randomState } from "openid-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { oauthProviders } from "@/db/schema";
import { seal } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { authorizationUrl, callbackUrl, exchangeCallback, loadEnabledProvider, type ResolvedProvider } from "@/lib/oauth/provider-client";
import { allowsInsecureRequests } from "@/lib/oauth/provider-presets";
import { startCountingServer } from "../../helpers/counting-server";
import { newEnvironment } from "../../helpers/fixtures";
import { withMode } from "../../helpers/mode";
import { startOidcProvider, type LoopbackOidcProvider } from "../../helpers/oidc-provider";

const REDIRECT_URI = "http://acme.localhost:3000/_svc/auth/oauth2/idp/callback";

let idp: LoopbackOidcProvider;
let environmentId: string;
let provider: ResolvedProvider;

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [REDIRECT_URI] });
  environmentId = (await newEnvironment()).environmentId;
  await getDb()
    .insert(oauthProviders)
    .values({ environmentId, id: "idp", type: "oidc", name: "Loopback IdP", clientId: idp.client.clientId, clientSecretSealed: await seal(idp.client.clientSecret), issuer: idp.issuer });
  const loaded = await loadEnabledProvider(getDb(), { id: environmentId }, "idp");
  if (!loaded) throw new Error("provider not loaded");
  provider = loaded;
});

afterAll(async () => {
  idp.tamperIdTokens(null);
  await idp.close();
});

/** One flow's secrets, as oauth-flow keeps them between authorize and callback. */
function flowSecrets() {
  return { redirectUri: REDIRECT_URI, state: randomState(), nonce: randomNonce(), codeVerifier: randomPKCECodeVerifier() };
}

async function signInAs(login: string, flow = flowSecrets()) {
  const url = await authorizationUrl(provider, flow);
  const currentUrl = await idp.signIn(url, login);
  return { flow, currentUrl };
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

describe("loadEnabledProvider", () => {
  it("finds the environment's enabled provider, never a disabled one or another environment's, and leaves the secret sealed", async () => {
    expect(provider).toMatchObject({ id: "idp", type: "oidc", name: "Loopback IdP", clientId: idp.client.clientId, issuer: idp.issuer, scopes: ["openid", "email", "profile"] });
    expect(JSON.stringify(provider)).not.toContain(idp.client.clientSecret);
    expect(await loadEnabledProvider(getDb(), { id: (await newEnvironment()).environmentId }, "idp")).toBeNull();
    expect(await loadEnabledProvider(getDb(), { id: environmentId }, "nope")).toBeNull();
    await getDb()
      .insert(oauthProviders)
      .values({ environmentId, id: "off", type: "oidc", name: "Off", clientId: "x", clientSecretSealed: await seal("y"), issuer: idp.issuer, enabled: false });
    expect(await loadEnabledProvider(getDb(), { id: environmentId }, "off")).toBeNull();
  });
});

describe("callbackUrl", () => {
  it("is {frontend origin}/_svc/auth/oauth2/{id}/callback, with no query (the token request repeats it exactly)", () => {
    expect(callbackUrl({ origin: "https://auth.acme.com", publishableKey: null }, "google")).toBe("https://auth.acme.com/_svc/auth/oauth2/google/callback");
    expect(callbackUrl({ origin: "http://localhost:3000", publishableKey: "pk_test_abc" }, "my-idp")).toBe("http://localhost:3000/_svc/auth/oauth2/my-idp/callback");
  });
});

describe("authorizationUrl", () => {
  it("asks the provider's discovered authorization endpoint for a code with PKCE S256, state, nonce and the scopes", async () => {
    const flow = flowSecrets();
    const url = await authorizationUrl(provider, flow);
    expect(url.origin).toBe(idp.issuer);
    const q = url.searchParams;
    expect(q.get("client_id")).toBe(idp.client.clientId);
    expect(q.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("scope")).toBe("openid email profile");
    expect(q.get("state")).toBe(flow.state);
    expect(q.get("nonce")).toBe(flow.nonce);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toBe(await calculatePKCECodeChallenge(flow.codeVerifier));
    expect(url.toString()).not.toContain(flow.codeVerifier);
  });
});

describe("exchangeCallback against a real OpenID provider", () => {
  it("a verified account: its subject, lower-cased email asserted verified, and names from UserInfo", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    expect(currentUrl.toString().startsWith(REDIRECT_URI)).toBe(true);
    const profile = await exchangeCallback(provider, { ...flow, currentUrl });
    expect(profile).toEqual({
      subject: idp.accounts.verified.sub,
      email: idp.accounts.verified.email,
      emailVerified: true,
      name: "Vera Verified",
      firstName: "Vera",
      lastName: "Verified",
      picture: null,
      username: null,
    });
  });

  it("an unverified account: the email without the verified flag", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.unverified.sub);
    const profile = await exchangeCallback(provider, { ...flow, currentUrl });
    expect(profile).toMatchObject({ subject: idp.accounts.unverified.sub, email: idp.accounts.unverified.email, emailVerified: false });
  });

  it("an account without an email and one with an upper-case address", async () => {
    const none = idp.addAccount({ email: null });
    const upper = idp.addAccount({ email: "Mixed.Case@IdP.Example", emailVerified: true });
    const first = await signInAs(none.sub);
    expect(await exchangeCallback(provider, { ...first.flow, currentUrl: first.currentUrl })).toMatchObject({ subject: none.sub, email: null, emailVerified: false });
    const second = await signInAs(upper.sub);
    expect(await exchangeCallback(provider, { ...second.flow, currentUrl: second.currentUrl })).toMatchObject({ email: "mixed.case@idp.example", emailVerified: true });
  });

  it("a code is redeemed once: the same callback replayed fails", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    await exchangeCallback(provider, { ...flow, currentUrl });
    await failure(exchangeCallback(provider, { ...flow, currentUrl }));
  });

  it("refuses a state other than the flow's", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    await failure(exchangeCallback(provider, { ...flow, state: randomState(), currentUrl }));
  });

  it("refuses a callback without state", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    currentUrl.searchParams.delete("state");
    await failure(exchangeCallback(provider, { ...flow, currentUrl }));
  });

  it("refuses a wrong PKCE verifier (the provider refuses the code)", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    await failure(exchangeCallback(provider, { ...flow, codeVerifier: randomPKCECodeVerifier(), currentUrl }));
  });

  it("refuses an id_token whose nonce is not the flow's", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    await failure(exchangeCallback(provider, { ...flow, nonce: randomNonce(), currentUrl }));
  });

  it("passes on the provider's refusal (the user pressed cancel) as providerError", async () => {
    const flow = flowSecrets();
    const currentUrl = await idp.signIn(await authorizationUrl(provider, flow), idp.accounts.verified.sub, { deny: true });
    expect(currentUrl.searchParams.get("error")).toBe("access_denied");
    const error = await failure(exchangeCallback(provider, { ...flow, currentUrl }));
    expect(error.properties).toEqual({ providerError: "access_denied" });
  });

  it("refuses a forged callback whose issuer parameter names another provider (mix-up, RFC 9207)", async () => {
    const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
    currentUrl.searchParams.set("iss", "https://evil.example");
    await failure(exchangeCallback(provider, { ...flow, currentUrl }));
  });

  describe("id_tokens the provider spoils", () => {
    for (const mode of ["nonce", "aud", "iss", "signature"] as const) {
      it(`refuses an id_token with a wrong ${mode}`, async () => {
        const { flow, currentUrl } = await signInAs(idp.accounts.verified.sub);
        idp.tamperIdTokens(mode);
        try {
          await failure(exchangeCallback(provider, { ...flow, currentUrl }));
        } finally {
          idp.tamperIdTokens(null);
        }
      });
    }
  });

  it("plain http only toward a loopback issuer, and not in production, even for a row stored before (CONTRACT §5)", async () => {
    for (const issuer of ["http://192.0.2.10", "http://idp.example", "http://127.0.0.1.evil.example"]) expect(allowsInsecureRequests(issuer), issuer).toBe(false);
    for (const issuer of ["http://127.0.0.1:4000", "http://localhost", "http://[::1]:8080", "http://idp.localhost"]) expect(allowsInsecureRequests(issuer), issuer).toBe(true);
    const fresh: ResolvedProvider = { ...provider, clientSecretSealed: await seal(idp.client.clientSecret) };
    await withMode("production", () => failure(authorizationUrl(fresh, flowSecrets())));
    expect((await authorizationUrl(fresh, flowSecrets())).origin).toBe(idp.issuer);
  });

  it("a provider that cannot be reached fails as oauth_failed, not as a crash", async () => {
    const unreachable: ResolvedProvider = { ...provider, issuer: `http://127.0.0.1:1/${randomBytes(4).toString("hex")}`, clientSecretSealed: await seal("s") };
    await failure(authorizationUrl(unreachable, flowSecrets()));
  });

  it("in production an https issuer on a loopback address or name is never contacted (SSRF through the issuer)", async () => {
    const witness = await startCountingServer();
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        const loopback: ResolvedProvider = { ...provider, issuer: `https://${host}:${witness.port}`, clientSecretSealed: await seal("s") };
        await withMode("production", () => failure(authorizationUrl(loopback, flowSecrets())));
      }
      expect(witness.connections).toBe(0);
    } finally {
      await witness.close();
    }
  });

  it("a failed discovery is kept for 30 seconds: /authorize cannot make Gatehouse hammer an issuer", async () => {
    const broken = await startCountingServer(500);
    try {
      const failing: ResolvedProvider = { ...provider, issuer: `http://127.0.0.1:${broken.port}`, clientSecretSealed: await seal("s") };
      await failure(authorizationUrl(failing, flowSecrets()));
      await failure(authorizationUrl(failing, flowSecrets()));
      expect(broken.requests).toEqual(["/.well-known/openid-configuration"]);
      vi.spyOn(Date, "now").mockReturnValue(Date.now() + 31_000);
      await failure(authorizationUrl(failing, flowSecrets()));
      expect(broken.requests).toHaveLength(2);
    } finally {
      vi.restoreAllMocks();
      await broken.close();
    }
  });
});
