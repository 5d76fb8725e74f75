import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A GitHub account of the fake. `emails` is what `/user/emails` answers. */
export interface FakeGitHubUser {
  id: number;
  login: string;
  name: string | null;
  /** The public profile email of `/user`: any address the user typed, never trusted. */
  publicEmail: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
  /** False: the app was not granted the email scope, and `/user/emails` answers 403. */
  emailScope: boolean;
}

export interface GitHubFake {
  /** The base URL, as a GitHub Enterprise Server's: `/login/oauth/*` and `/api/v3/*` below it. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  users: { verified: FakeGitHubUser; unverified: FakeGitHubUser };
  addUser(user: Partial<FakeGitHubUser>): FakeGitHubUser;
  /** What the fake's token endpoint received, newest last (to check PKCE and client authentication). */
  tokenRequests: URLSearchParams[];
  /**
   * Plays the browser: opens `authorizationUrl` as `login` (GitHub shows no form to a
   * signed-in user who already authorized the app) and returns the callback URL,
   * with `error=access_denied` when `deny`.
   */
  signIn(authorizationUrl: URL | string, login: string, options?: { deny?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

interface IssuedCode {
  login: string;
  redirectUri: string;
  codeChallenge: string | null;
  used: boolean;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A tiny stand-in for GitHub's OAuth web flow and REST API on a loopback port
 * (GitHub runs no OpenID provider we could start): authorize, access_token (with
 * PKCE S256 and GitHub's habit of answering errors with 200), `/user` and
 * `/user/emails`. Only where no real server can run, as the issue allows.
 */
export async function startGitHubFake(): Promise<GitHubFake> {
  const clientId = `Iv1.${randomBytes(8).toString("hex")}`;
  const clientSecret = randomBytes(20).toString("hex");
  const users = new Map<string, FakeGitHubUser>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, string>();
  const tokenRequests: URLSearchParams[] = [];
  let nextId = 1000;

  const addUser = (user: Partial<FakeGitHubUser>): FakeGitHubUser => {
    nextId += 1;
    const login = user.login ?? `octo-${nextId}`;
    const full: FakeGitHubUser = { id: nextId, login, name: null, publicEmail: null, emails: [], emailScope: true, ...user };
    users.set(login, full);
    return full;
  };
  const preset = {
    verified: addUser({
      name: "Mona Lisa Octocat",
      publicEmail: "public-profile@elsewhere.example",
      emails: [
        { email: `Mona-${randomBytes(3).toString("hex")}@GitHub.Example`, primary: true, verified: true },
        { email: "old-address@github.example", primary: false, verified: true },
      ],
    }),
    unverified: addUser({
      name: "Unverified Octocat",
      emails: [
        { email: `fresh-${randomBytes(3).toString("hex")}@github.example`, primary: true, verified: false },
        { email: "secondary-verified@github.example", primary: false, verified: true },
      ],
    }),
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
        const redirectUri = url.searchParams.get("redirect_uri");
        const login = url.searchParams.get("login") ?? "";
        if (url.searchParams.get("client_id") !== clientId || !redirectUri || !users.has(login)) return json(res, 400, { error: "bad authorize request" });
        const target = new URL(redirectUri);
        const state = url.searchParams.get("state");
        if (state) target.searchParams.set("state", state);
        if (url.searchParams.get("deny") === "1") {
          target.searchParams.set("error", "access_denied");
        } else {
          const code = randomBytes(10).toString("hex");
          const method = url.searchParams.get("code_challenge_method");
          codes.set(code, { login, redirectUri, codeChallenge: method === "S256" ? url.searchParams.get("code_challenge") : null, used: false });
          target.searchParams.set("code", code);
        }
        res.writeHead(302, { location: target.toString() }).end();
        return;
      }
      if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
        const form = new URLSearchParams(await readBody(req));
        tokenRequests.push(form);
        const issued = codes.get(form.get("code") ?? "");
        // GitHub answers token errors with 200 and an `error` member.
        if (form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret) return json(res, 200, { error: "incorrect_client_credentials" });
        if (!issued || issued.used || issued.redirectUri !== form.get("redirect_uri")) return json(res, 200, { error: "bad_verification_code" });
        issued.used = true;
        const verifier = form.get("code_verifier") ?? "";
        if (issued.codeChallenge && createHash("sha256").update(verifier).digest("base64url") !== issued.codeChallenge) {
          return json(res, 200, { error: "bad_verification_code" });
        }
        const token = `gho_${randomBytes(18).toString("hex")}`;
        tokens.set(token, issued.login);
        return json(res, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
      }
      if (req.method === "GET" && (url.pathname === "/api/v3/user" || url.pathname === "/api/v3/user/emails")) {
        const token = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const user = users.get(tokens.get(token) ?? "");
        if (!user) return json(res, 401, { message: "Bad credentials" });
        if (url.pathname === "/api/v3/user/emails" && !user.emailScope) return json(res, 403, { message: "Resource not accessible by integration" });
        if (url.pathname === "/api/v3/user/emails") return json(res, 200, user.emails.map((e) => ({ ...e, visibility: e.primary ? "private" : null })));
        return json(res, 200, { id: user.id, login: user.login, name: user.name, email: user.publicEmail, avatar_url: `https://avatars.example/u/${user.id}` });
      }
      json(res, 404, { message: "Not Found" });
    })().catch((error: unknown) => json(res, 500, { message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    clientId,
    clientSecret,
    users: preset,
    addUser,
    tokenRequests,
    signIn: async (authorizationUrl, login, options = {}) => {
      const url = new URL(authorizationUrl);
      url.searchParams.set("login", login);
      if (options.deny) url.searchParams.set("deny", "1");
      const response = await fetch(url, { redirect: "manual" });
      const location = response.headers.get("location");
      if (!location) throw new Error(`the GitHub fake answered ${response.status}: ${await response.text()}`);
      return new URL(location);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
