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

/** A sign-in brought up to its callback: the URL the provider sent the browser to, and the browser's flow cookie. */
export interface PreparedCallback {
  callbackUrl: string;
  flowCookie: string;
}

/**
 * The unmeasured part of a web sign-in as a browser makes it, by PUBLIC_URL with
 * `pk`: authorize (its gh_oauth cookie and the provider URL), then the provider's
 * login as `login`, up to the callback URL the provider redirects to.
 */
export async function prepareCallback(target: OAuthTarget, login: string): Promise<PreparedCallback> {
  const authorizeUrl = `${target.baseUrl}/_svc/auth/oauth2/${target.providerId}/authorize?pk=${encodeURIComponent(target.publishableKey)}`;
  const authorize = await request(authorizeUrl, { headersTimeout: TIMEOUT_MS });
  const authorizeBody = await authorize.body.text();
  // `__Host-gh_oauth` where PUBLIC_URL is https (the bench's), `gh_oauth` on plain http.
  const flowCookie = cookieNamed(authorize.headers["set-cookie"], "__Host-gh_oauth") ?? cookieNamed(authorize.headers["set-cookie"], "gh_oauth");
  const providerUrl = authorize.headers.location;
  if (authorize.statusCode !== 303 || !flowCookie || typeof providerUrl !== "string") {
    throw new Error(`authorize answered ${authorize.statusCode}: ${authorizeBody.slice(0, 300)}`);
  }
  const callback = await target.provider.signIn(providerUrl, login);
  // The provider sends the browser to PUBLIC_URL; here that is the server under test.
  return { callbackUrl: `${target.baseUrl}${callback.pathname}${callback.search}`, flowCookie };
}

/** The measured part: the callback with the browser's cookie; anything but a signed-in 303 (a session cookie, no `error=`) throws. */
export async function timedCallback(target: OAuthTarget, prepared: PreparedCallback): Promise<CallbackSample> {
  const started = performance.now();
  const response = await request(prepared.callbackUrl, { headers: { cookie: prepared.flowCookie }, headersTimeout: TIMEOUT_MS });
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

/** One whole web sign-in: the provider's part, then the timed callback. */
export async function signInOnce(target: OAuthTarget, login: string): Promise<CallbackSample> {
  return timedCallback(target, await prepareCallback(target, login));
}

/**
 * The provider's in-memory store (oidc-provider's development adapter) keeps about
 * a thousand entries and a sign-in leaves several (interaction, session, grant,
 * code): callbacks are prepared in rounds small enough that no code is evicted
 * before it is delivered.
 */
const ROUND = 100;

/**
 * Sign-ins in rounds of two phases, so the figure is the callback's own and not the
 * time it waits behind the provider's login pages on the same cores: `connections`
 * browsers bring a round of sign-ins up to their callback (authorize and the
 * provider's login, unmeasured), then deliver those callbacks, timed, as fast as
 * they answer; rounds follow until `seconds` of delivery are measured. A failed
 * sign-in is counted and its browser goes on.
 */
export async function signInLoad(target: OAuthTarget, nextLogin: () => string, options: { connections: number; seconds: number }): Promise<SignInRun> {
  const run: SignInRun = { samples: [], failures: 0, firstFailure: null, seconds: 0, signedIn: [] };
  const failed = (error: unknown) => {
    run.failures += 1;
    run.firstFailure ??= error instanceof Error ? error.message : String(error);
  };
  const inParallel = (work: () => Promise<void>) => Promise.all(Array.from({ length: options.connections }, work));
  while (run.seconds < options.seconds) {
    const prepared: { login: string; callback: PreparedCallback }[] = [];
    let started = 0;
    await inParallel(async () => {
      while (started++ < ROUND) {
        const login = nextLogin();
        await prepareCallback(target, login).then((callback) => prepared.push({ login, callback }), failed);
      }
    });
    const deliveryStarted = performance.now();
    let next = 0;
    await inParallel(async () => {
      for (let item = prepared[next++]; item; item = prepared[next++]) {
        const { login, callback } = item;
        await timedCallback(target, callback).then((sample) => {
          run.samples.push(sample);
          run.signedIn.push(login);
        }, failed);
      }
    });
    run.seconds += (performance.now() - deliveryStarted) / 1000;
  }
  return run;
}
