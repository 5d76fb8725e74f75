import { expect, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import * as OTPAuth from "otpauth";
import type { OperatorRole } from "@/lib/operation/caller";
import { environments } from "./fixtures";
import { e2eRun, type OperatorLogin } from "./run-settings";

const STEP_MS = 30_000;

/** What a sign-in as a prepared operator answers the second step with, if anything. */
export interface OperatorProof {
  email: string;
  password: string;
  secondStep: { method: "totp" | "recovery"; code: string } | null;
}

/**
 * What this slot has spent of its operators' factors, kept in a file of the run
 * folder so a worker restarted after a failure (same parallel slot, new process)
 * does not offer a time step or a recovery code its predecessor already used.
 */
interface SlotState {
  [email: string]: { lastStep?: number; recoveryUsed?: number };
}

/** The worker's parallel slot: 0 … workers-1, the same for a worker restarted in its place. */
function parallelSlot(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

function stateFile(slot: number): string {
  return path.join(e2eRun().runDir, `operator-factors-slot-${slot}.json`);
}

function readState(slot: number): SlotState {
  try {
    return JSON.parse(fs.readFileSync(stateFile(slot), "utf8")) as SlotState;
  } catch {
    return {};
  }
}

function currentStep(): number {
  return Math.floor(Date.now() / STEP_MS);
}

function totpCode(secret: string, step: number): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), period: STEP_MS / 1000 }).generate({ timestamp: step * STEP_MS });
}

/**
 * The next proof for one of this slot's operators of `role`, recorded as spent
 * before it is used. The server accepts each authenticator step once per operator
 * and only moving forward, within one step of its clock, so an operator gives two
 * codes without waiting (this step's and the next's); then another operator of the
 * slot does, then their recovery codes (each once), and only when all are spent does
 * this wait for the next step. Owners and admins only: viewers have no factor.
 */
async function nextProof(role: OperatorRole): Promise<OperatorProof> {
  const slots = environments().operatorLogins[role];
  const slot = parallelSlot() % slots.length;
  const logins: OperatorLogin[] = slots[slot] ?? [];
  const first = logins[0];
  if (!first) throw new Error(`no prepared ${role} operator`);
  if (!first.totp) return { email: first.email, password: first.password, secondStep: null };
  for (;;) {
    const state = readState(slot);
    const spend = (email: string, change: SlotState[string]) => {
      state[email] = { ...state[email], ...change };
      fs.writeFileSync(stateFile(slot), JSON.stringify(state));
    };
    const now = currentStep();
    for (const login of logins) {
      if (!login.totp) continue;
      const step = Math.max(now, (state[login.email]?.lastStep ?? login.totp.lastStep) + 1);
      if (step > now + 1) continue;
      spend(login.email, { lastStep: step });
      return { email: login.email, password: login.password, secondStep: { method: "totp", code: totpCode(login.totp.secret, step) } };
    }
    for (const login of logins) {
      const used = state[login.email]?.recoveryUsed ?? 0;
      const code = login.totp?.recoveryCodes[used];
      if (!code) continue;
      spend(login.email, { recoveryUsed: used + 1 });
      return { email: login.email, password: login.password, secondStep: { method: "recovery", code } };
    }
    // Every step and code of the slot is spent: the next step frees a code of each operator.
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 250));
  }
}

/** One sign-in at a time in this worker, so two pages of one test never pick the same code. */
let queue: Promise<unknown> = Promise.resolve();

/** The next proof for this worker's operators of `role` (see nextProof), for a test that drives the sign-in pages itself. */
export function operatorProof(role: OperatorRole): Promise<OperatorProof> {
  const next = queue.then(() => nextProof(role));
  queue = next.catch(() => undefined);
  return next;
}

/** The second step's page, answered with `secondStep` (an authenticator code, or a recovery code on its own variant of the page). */
export async function answerSecondStep(page: Page, secondStep: NonNullable<OperatorProof["secondStep"]>): Promise<void> {
  await page.waitForURL(/\/dashboard\/sign-in\/verify/);
  if (secondStep.method === "recovery") {
    await page.getByRole("link", { name: "Use a recovery code instead" }).click();
    await page.waitForURL(/method=recovery/);
    await page.getByLabel("Recovery code").fill(secondStep.code);
  } else {
    await page.getByLabel("Authenticator code").fill(secondStep.code);
  }
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

/**
 * Signs the page's browser in to the dashboard as a prepared operator of `role`
 * (prepare-server.ts) and waits for the overview: the screens' tests start here.
 * Owners and admins hold an authenticator app, so the sign-in goes through the
 * second step with a code no other sign-in of the run has used (nextProof).
 */
export async function signInAsOperator(page: Page, role: OperatorRole): Promise<{ email: string }> {
  const { email, password, secondStep } = await operatorProof(role);
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  if (secondStep) await answerSecondStep(page, secondStep);
  await page.waitForURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return { email };
}
