import { request } from "undici";
import type { BenchProvider } from "./oauth-provider";

/** The server under test and the provider registered in its bench environment. */
export interface OAuthTarget {
  baseUrl: string;
  publishableKey: string;
  providerId: string;
  provider: BenchProvider;
}

/** One callback as the browser saw it, and what its Server-Timing header says of it. */
export interface CallbackSample {
  /** From sending the callback request to the end of its answer, at the client. */
  totalMs: number;
  /** `oauth-exchange`: the round trips to the provider, which the acceptance figure leaves out. */
  exchangeMs: number;
  /** `app`: the callback's whole work on the server, exchange included. */
  appMs: number;
}

export interface SignInRun {
  samples: CallbackSample[];
  /** Sign-ins that failed anywhere (authorize, the provider, the callback), and the first reason. */
  failures: number;
  firstFailure: string | null;
  seconds: number;
  /** The login names that signed in: after a new-user run, the returning users of the next. */
  signedIn: string[];
}

/** A slow answer is a figure; one that hangs this long is a fault. */
const TIMEOUT_MS = 10_000;

/** `oauth-exchange;dur=12.3, app;dur=20.1` → { "oauth-exchange": 12.3, app: 20.1 } (W3C Server Timing). */
export function serverTimings(header: string | string[] | undefined): Record<string, number> {
  const timings: Record<string, number> = {};
  for (const entry of [header ?? []].flat().join(",").split(",")) {
    const [name = "", ...params] = entry.split(";").map((part) => part.trim());
    const duration = params.map((param) => /^dur=([\d.]+)$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (name && duration !== undefined) timings[name] = Number(duration);
  }
  return timings;
}

function cookieNamed(setCookie: string | string[] | undefined, name: string): string | null {
  const line = [setCookie ?? []].flat().find((cookie) => cookie.startsWith(`${name}=`));
  return line ? (line.split(";")[0] ?? null) : null;
}

/**
 * One web sign-in as a browser makes it, by PUBLIC_URL with `pk`: authorize (its
 * gh_oauth cookie and the provider URL), the provider's login as `login`, then the
 * callback with the cookie. Only the callback is timed; anything but a signed-in
 * 303 (a session cookie, no `error=`) throws.
 */
export async function signInOnce(target: OAuthTarget, login: string): Promise<CallbackSample> {
  const authorizeUrl = `${target.baseUrl}/_svc/auth/oauth2/${target.providerId}/authorize?pk=${encodeURIComponent(target.publishableKey)}`;
  const authorize = await request(authorizeUrl, { headersTimeout: TIMEOUT_MS });
  const authorizeBody = await authorize.body.text();
  const flowCookie = cookieNamed(authorize.headers["set-cookie"], "gh_oauth");
  const providerUrl = authorize.headers.location;
  if (authorize.statusCode !== 303 || !flowCookie || typeof providerUrl !== "string") {
    throw new Error(`authorize answered ${authorize.statusCode}: ${authorizeBody.slice(0, 300)}`);
  }

  const callback = await target.provider.signIn(providerUrl, login);
  // The provider sends the browser to PUBLIC_URL; here that is the server under test.
  const callbackUrl = `${target.baseUrl}${callback.pathname}${callback.search}`;
  const started = performance.now();
  const response = await request(callbackUrl, { headers: { cookie: flowCookie }, headersTimeout: TIMEOUT_MS });
  await response.body.dump();
  const totalMs = performance.now() - started;

  const location = response.headers.location;
  const error = typeof location === "string" ? new URL(location, target.baseUrl).searchParams.get("error") : null;
  if (response.statusCode !== 303 || error || !cookieNamed(response.headers["set-cookie"], "__gh_session")) {
    throw new Error(`callback answered ${response.statusCode} to ${String(location)}${error ? "" : " without a session cookie"}`);
  }
  const timings = serverTimings(response.headers["server-timing"]);
  const exchangeMs = timings["oauth-exchange"];
  const appMs = timings.app;
  if (exchangeMs === undefined || appMs === undefined) {
    throw new Error(`the callback's Server-Timing has no oauth-exchange and app durations: ${String(response.headers["server-timing"])}`);
  }
  return { totalMs, exchangeMs, appMs };
}

/**
 * `connections` browsers signing in one after another for `seconds`, each with the
 * next login name `nextLogin` gives (a closed loop: a browser starts its next
 * sign-in when its callback has answered). Sign-ins started before the deadline
 * all count; a failed one is counted and the browser goes on.
 */
export async function signInLoad(target: OAuthTarget, nextLogin: () => string, options: { connections: number; seconds: number }): Promise<SignInRun> {
  const run: SignInRun = { samples: [], failures: 0, firstFailure: null, seconds: 0, signedIn: [] };
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const browser = async () => {
    while (performance.now() < deadline) {
      const login = nextLogin();
      try {
        run.samples.push(await signInOnce(target, login));
        run.signedIn.push(login);
      } catch (error) {
        run.failures += 1;
        run.firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, browser));
  run.seconds = (performance.now() - started) / 1000;
  return run;
}
