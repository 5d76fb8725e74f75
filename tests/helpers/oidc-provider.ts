import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import Provider, { type AccountClaims } from "oidc-provider";
import { publicUrl } from "@/lib/config/runtime";
import { frontendHostOrigin } from "@/lib/environments/environment-links";
import { callbackUrl } from "@/lib/oauth/provider-client";
import type { ServerApi } from "./api";
import { interactionForm } from "./oidc-interaction";

/** An account of the loopback provider. Its `sub` is also what is typed into the provider's login form. */
export interface TestAccount {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name?: string;
  givenName?: string;
  familyName?: string;
  picture?: string;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/**
 * How the provider's next id_tokens are spoiled (until reset with null): re-signed
 * with a wrong `nonce`, `aud` or `iss`, or signed with a key the provider does not
 * publish under the same `kid` (`signature`).
 */
export type IdTokenTamper = "nonce" | "aud" | "iss" | "signature" | "auth_time" | null;

export interface LoopbackOidcProvider {
  issuer: string;
  client: TestClient;
  /** Preset accounts: `verified` (email_verified true) and `unverified` (false). */
  accounts: { verified: TestAccount; unverified: TestAccount };
  addAccount(account: Partial<TestAccount> & { email: string | null }): TestAccount;
  tamperIdTokens(mode: IdTokenTamper): void;
  /**
   * Plays the browser at the provider: follows `authorizationUrl`, signs in as
   * `login` (an account's `sub`), grants consent (or presses "cancel" with `deny`),
   * and returns the URL the provider finally redirects to (our callback).
   */
  signIn(authorizationUrl: URL | string, login: string, options?: { deny?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

/** A tiny cookie jar for one origin: oidc-provider keeps the interaction in cookies. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    store(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const index = pair.indexOf("=");
        const name = pair.slice(0, index).trim();
        const value = pair.slice(index + 1).trim();
        if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}

/**
 * A real OpenID provider (oidc-provider 9) on a loopback port, with one confidential
 * client (client_secret_post) registered for `redirectUris`, RS256 id_tokens from a
 * key the test holds (so it can forge bad ones), and accounts whose email is
 * verified or not. Claims beyond `sub` come from UserInfo, as with most providers.
 */
export async function startOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  /**
   * Any login typed into the provider's form is an account (its `sub`), with the
   * verified email `{login}@idp.example`: for tests in other processes than the one
   * running the provider (Playwright workers), which cannot call `addAccount`.
   */
  anyLogin?: boolean;
}): Promise<LoopbackOidcProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "loopback-1", alg: "RS256", use: "sig" };
  const { privateKey: strangerKey } = await generateKeyPair("RS256");
  let tamper: IdTokenTamper = null;

  const accounts = new Map<string, TestAccount>();
  let counter = 0;
  const addAccount = (account: Partial<TestAccount> & { email: string | null }): TestAccount => {
    counter += 1;
    const full: TestAccount = { emailVerified: false, sub: `acct-${counter}-${randomBytes(4).toString("hex")}`, ...account };
    accounts.set(full.sub, full);
    return full;
  };
  const preset = {
    verified: addAccount({ email: `verified-${randomBytes(4).toString("hex")}@idp.example`, emailVerified: true, name: "Vera Verified", givenName: "Vera", familyName: "Verified" }),
    unverified: addAccount({ email: `unverified-${randomBytes(4).toString("hex")}@idp.example`, emailVerified: false, name: "Una Unverified" }),
  };

  const client: TestClient = {
    clientId: options.clientId ?? "gatehouse-test",
    clientSecret: randomBytes(24).toString("base64url"),
    redirectUris: options.redirectUris,
  };

  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | null = null;
  const server = http.createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "picture"],
    },
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Session: 600, Grant: 600 },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id) ?? (options.anyLogin ? addAccount({ sub: id, email: `${id.toLowerCase()}@idp.example`, emailVerified: true, name: id }) : undefined);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: (): AccountClaims => ({
          sub: account.sub,
          ...(account.email === null ? {} : { email: account.email, email_verified: account.emailVerified }),
          ...(account.name ? { name: account.name } : {}),
          ...(account.givenName ? { given_name: account.givenName } : {}),
          ...(account.familyName ? { family_name: account.familyName } : {}),
          ...(account.picture ? { picture: account.picture } : {}),
        }),
      };
    },
  });

  // The forgeries are made after the provider has answered, on its token response.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (!tamper || ctx.path !== "/token" || typeof body?.id_token !== "string") return;
    const header = decodeProtectedHeader(body.id_token);
    const claims: JWTPayload = decodeJwt(body.id_token);
    if (tamper === "nonce") claims.nonce = "a-nonce-nobody-sent";
    if (tamper === "aud") claims.aud = "someone-else";
    if (tamper === "iss") claims.iss = "http://127.0.0.1:1/another-issuer";
    // A sign-in an hour old, as a provider that ignored prompt=login / max_age=0 would report it.
    if (tamper === "auth_time") claims.auth_time = Math.floor(Date.now() / 1000) - 3600;
    const key = tamper === "signature" ? strangerKey : privateKey;
    ctx.body = { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: header.kid, typ: header.typ }).sign(key) };
  });
  handler = provider.callback();

  const signIn = async (authorizationUrl: URL | string, login: string, signInOptions: { deny?: boolean } = {}): Promise<URL> => {
    const jar = cookieJar();
    let next: { url: string; method: "GET" | "POST"; body?: URLSearchParams } = { url: String(authorizationUrl), method: "GET" };
    for (let step = 0; step < 12; step += 1) {
      const response = await fetch(next.url, {
        method: next.method,
        redirect: "manual",
        headers: { cookie: jar.header(), ...(next.body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        body: next.body,
      });
      jar.store(response);
      const location = response.headers.get("location");
      if (location) {
        const target = new URL(location, next.url);
        if (target.origin !== issuer) return target;
        next = { url: target.toString(), method: "GET" };
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${html.slice(0, 300)}`);
      if (signInOptions.deny) {
        const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
        if (!abort) throw new Error("no abort link on the provider's page");
        next = { url: new URL(abort.replace(/&amp;/g, "&"), next.url).toString(), method: "GET" };
        continue;
      }
      const form = interactionForm(html, login);
      next = { url: new URL(form.action, next.url).toString(), method: "POST", body: form.fields };
    }
    throw new Error("the provider's sign-in did not end in a redirect");
  };

  return {
    issuer,
    client,
    accounts: preset,
    addAccount,
    tamperIdTokens: (mode) => {
      tamper = mode;
    },
    signIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback provider wired to an environment: started with the environment's
 * callback URLs (its frontend host and PUBLIC_URL) registered, and added to the
 * environment through the Server API as an `oidc` provider with id `providerId`.
 */
export async function connectOidcProvider(
  environment: { api: ServerApi; frontendHost: string },
  options: { providerId?: string; name?: string; extra?: Record<string, unknown> } = {},
): Promise<LoopbackOidcProvider & { providerId: string }> {
  const providerId = options.providerId ?? "idp";
  const redirectUris = [
    callbackUrl({ origin: frontendHostOrigin(environment.frontendHost), publishableKey: null }, providerId),
    callbackUrl({ origin: new URL(publicUrl()).origin, publishableKey: null }, providerId),
  ];
  const idp = await startOidcProvider({ redirectUris });
  const res = await environment.api.post("/oauth-providers", {
    id: providerId,
    type: "oidc",
    name: options.name ?? "Loopback IdP",
    issuer: idp.issuer,
    clientId: idp.client.clientId,
    clientSecret: idp.client.clientSecret,
    ...options.extra,
  });
  if (res.status !== 201) {
    await idp.close();
    throw new Error(`adding the loopback provider answered ${res.status}: ${res.text}`);
  }
  return Object.assign(idp, { providerId });
}
