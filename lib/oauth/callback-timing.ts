/**
 * Where the time of one OAuth callback goes, for its `Server-Timing` response header
 * (W3C Server Timing): `oauth-exchange`, the round trips to the provider (code
 * redemption, id_token check, UserInfo), which depend on the provider and not on
 * us, and `app`, the callback's whole work, exchange included. Operators and the
 * OAuth bench read our own share as `app − oauth-exchange`. Durations only,
 * rounded to 0.1 ms: nothing the browser that completed the flow does not know.
 */
export class CallbackTiming {
  private readonly startedAt = performance.now();
  private exchangeMs: number | null = null;

  /** Runs the provider exchange, timed whether it succeeds or fails. */
  async exchange<T>(work: () => Promise<T>): Promise<T> {
    const began = performance.now();
    try {
      return await work();
    } finally {
      this.exchangeMs = performance.now() - began;
    }
  }

  /** The header value: `oauth-exchange;dur=12.3, app;dur=20.1` (no exchange when the flow stopped before one). */
  header(): string {
    const app = `app;dur=${(performance.now() - this.startedAt).toFixed(1)}`;
    return this.exchangeMs === null ? app : `oauth-exchange;dur=${this.exchangeMs.toFixed(1)}, ${app}`;
  }
}
