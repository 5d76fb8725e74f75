import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { interactionForm } from "../tests/helpers/oidc-interaction";

/**
 * A throwaway self-signed certificate for 127.0.0.1: the bench's provider speaks
 * https, and the server under test trusts it through NODE_EXTRA_CA_CERTS (read at
 * process start, hence made before the server starts).
 */
export interface BenchCertificate {
  certPath: string;
  keyPath: string;
  pem: string;
  remove(): void;
}

export function makeCertificate(): BenchCertificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-bench-idp-"));
  const certPath = path.join(dir, "cert.pem");
  const keyPath = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"]
      .concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyPath, "-out", certPath]),
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return { certPath, keyPath, pem: fs.readFileSync(certPath, "utf8"), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface BenchProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Plays a fresh browser at the provider: follows `authorizationUrl`, signs in as
   * `login` and returns the URL the provider finally redirects to (our callback).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  output(): string;
  stop(): Promise<void>;
}

const OUTPUT_LINES = 40;

/** The cookies of one browser at the provider (oidc-provider keeps the interaction in cookies). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    store(setCookie: string | string[] | undefined) {
      for (const line of [setCookie ?? []].flat()) {
        const [pair = ""] = line.split(";");
        const index = pair.indexOf("=");
        const value = pair.slice(index + 1).trim();
        if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(pair.slice(0, index).trim());
        else cookies.set(pair.slice(0, index).trim(), value);
      }
    },
  };
}

/** Starts bench/oauth-provider-process.ts with a client registered for `redirectUri`; resolves once it listens. */
export async function startBenchProvider(options: { certificate: BenchCertificate; redirectUri: string }): Promise<BenchProvider> {
  const clientId = "gatehouse-bench";
  const clientSecret = randomBytes(24).toString("base64url");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(process.cwd(), "bench/oauth-provider-process.ts")], {
    env: {
      ...process.env,
      BENCH_IDP_KEY: options.certificate.keyPath,
      BENCH_IDP_CERT: options.certificate.certPath,
      BENCH_IDP_CLIENT_ID: clientId,
      BENCH_IDP_CLIENT_SECRET: clientSecret,
      BENCH_IDP_REDIRECT_URI: options.redirectUri,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (data: Buffer) => {
    lines.push(...data.toString("utf8").split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_LINES));
  };
  child.stderr.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };

  let issuer: string;
  try {
    issuer = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the bench provider did not start in 30 s")), 30_000);
      child.stdout.on("data", (data: Buffer) => {
        collect(data);
        const ready = lines.map((line) => /^\{"issuer":"([^"]+)"\}$/.exec(line)?.[1]).find(Boolean);
        if (ready) {
          clearTimeout(timer);
          resolve(ready);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error("the bench provider exited"));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}:\n${lines.join("\n")}`, { cause: error });
  }

  const agent = new Agent({ connect: { ca: options.certificate.pem }, keepAliveTimeout: 10_000 });
  const signIn = async (authorizationUrl: string, login: string): Promise<URL> => {
    const jar = cookieJar();
    let next: { url: string; body?: URLSearchParams } = { url: authorizationUrl };
    for (let step = 0; step < 10; step += 1) {
      const response = await request(next.url, {
        method: next.body ? "POST" : "GET",
        dispatcher: agent,
        headers: { cookie: jar.header(), ...(next.body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
        body: next.body?.toString(),
      });
      jar.store(response.headers["set-cookie"]);
      const location = response.headers.location;
      if (typeof location === "string") {
        await response.body.dump();
        const target = new URL(location, next.url);
        if (target.origin !== issuer) return target;
        next = { url: target.toString() };
        continue;
      }
      const html = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`the provider answered ${response.statusCode}: ${html.slice(0, 300)}`);
      const form = interactionForm(html, login);
      next = { url: new URL(form.action, next.url).toString(), body: form.fields };
    }
    throw new Error("the provider's sign-in did not end in a redirect");
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signIn,
    output: () => lines.join("\n"),
    stop: async () => {
      await agent.close();
      await stop();
    },
  };
}
