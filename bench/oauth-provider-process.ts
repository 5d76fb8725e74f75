/**
 * The OAuth bench's OpenID provider, in a process of its own (started by
 * bench/oauth-provider.ts as `node --import tsx bench/oauth-provider-process.ts`) so
 * its work never runs on the event loop that times the callbacks. oidc-provider 9
 * over https on a loopback port (the server under test runs in production mode,
 * where a provider must speak https), one confidential client, and an account for
 * any login name: the bench makes up a new name for a new user and reuses one for a
 * returning user. Consent is granted without asking, as for a first-party app, so
 * a browser's visit is the login form only.
 *
 * Reads BENCH_IDP_KEY and BENCH_IDP_CERT (PEM files), BENCH_IDP_CLIENT_ID,
 * BENCH_IDP_CLIENT_SECRET and BENCH_IDP_REDIRECT_URI; prints `{"issuer": ...}` on
 * one line once it listens; stops on SIGTERM.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type AccountClaims } from "oidc-provider";

/** The login names the bench uses; anything else is no account. */
const LOGIN = /^[a-z0-9-]{1,64}$/;

/** What loadExistingGrant reads of oidc-provider's request context (the package ships no types). */
interface GrantContext {
  oidc: {
    client: { clientId: string };
    session: { accountId: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    provider: { Grant: GrantClass };
  };
}

interface GrantClass {
  new (init: { clientId: string; accountId: string }): { addOIDCScope(scope: string): void; save(): Promise<string> };
  find(id: string): Promise<unknown>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function main(): Promise<void> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "bench-1", alg: "RS256", use: "sig" };

  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = https.createServer({ key: fs.readFileSync(required("BENCH_IDP_KEY")), cert: fs.readFileSync(required("BENCH_IDP_CERT")) }, (req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: required("BENCH_IDP_CLIENT_ID"),
        client_secret: required("BENCH_IDP_CLIENT_SECRET"),
        redirect_uris: [required("BENCH_IDP_REDIRECT_URI")],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    ttl: { AccessToken: 300, AuthorizationCode: 60, IdToken: 300, Interaction: 600, Session: 600, Grant: 600 },
    findAccount: (_ctx: unknown, id: string) =>
      LOGIN.test(id)
        ? { accountId: id, claims: (): AccountClaims => ({ sub: id, email: `${id}@idp.bench.example`, email_verified: true, name: `Bench ${id}` }) }
        : undefined,
    // First-party consent: the grant is made on the spot instead of asking (oidc-provider's documented recipe).
    loadExistingGrant: async (ctx: GrantContext) => {
      const { client, session, result, provider: self } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return self.Grant.find(grantId);
      const grant = new self.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  handler = provider.callback();

  process.on("SIGTERM", () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  console.log(JSON.stringify({ issuer }));
}

main().catch((error: unknown) => {
  console.error("bench provider failed:", error);
  process.exit(1);
});
