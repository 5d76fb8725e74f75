import { TOTP } from "otpauth";
import { expect, type Page } from "@playwright/test";

const PERIOD_SECONDS = 30;

/**
 * The person's authenticator app, made from the key the setup page shows (an
 * independent TOTP implementation: the `otpauth` package). The server accepts each
 * time step once and only moving forward, within ±1 step of its clock, so every
 * code comes from a later step than the one before: the current step, else the
 * next one, else (a third code within one step) after waiting for time to catch up.
 */
export class Authenticator {
  private readonly totp: TOTP;
  private lastStep = -Infinity;

  constructor(secret: string) {
    this.totp = new TOTP({ secret: secret.replace(/\s+/g, ""), period: PERIOD_SECONDS });
  }

  /** Reads the key from the setup step on the page. */
  static async fromSetupPage(page: Page): Promise<Authenticator> {
    const secret = page.getByTestId("totp-secret");
    await expect(secret).toBeVisible();
    return new Authenticator((await secret.innerText()).trim());
  }

  async code(): Promise<string> {
    const now = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
    const step = Math.max(now, this.lastStep + 1);
    const waitMs = (step - 1) * PERIOD_SECONDS * 1000 - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 250));
    this.lastStep = step;
    return this.totp.generate({ timestamp: step * PERIOD_SECONDS * 1000 });
  }
}
