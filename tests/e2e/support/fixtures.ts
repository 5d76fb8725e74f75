import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { e2eRun, type E2eEnvironments } from "./run-settings";
import { serverApi } from "./server-api";

export const BASE_URL = e2eRun().baseUrl;
/** An origin on the allowed-origins list that is served by this same server (127.0.0.1 instead of localhost). */
export const ALLOWED_ORIGIN = `http://127.0.0.1:${e2eRun().port}`;
export const PASSWORD = "violet-harbour-lantern-42";

let cached: E2eEnvironments | undefined;
export function environments(): E2eEnvironments {
  cached ??= JSON.parse(fs.readFileSync(e2eRun().environmentsFile, "utf8")) as E2eEnvironments;
  return cached;
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@e2e.test`;
}

/** A user of the main environment created through the Server API (its address trusted as verified). */
export async function createUser(
  label: string,
  password = PASSWORD,
  secretKey = environments().main.secretKey,
): Promise<{ id: string; email: string; password: string }> {
  const email = uniqueEmail(label);
  const user = await serverApi(secretKey).post<{ id: string }>("/users", { email, password, firstName: "Ada", lastName: "Lovelace" });
  return { id: user.id, email, password };
}

interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  template: string;
  createdAt: string;
}

/**
 * The newest email of a template to an address, read from the outbox as a person
 * reads their inbox. Polls, since some emails leave after the response (reset codes).
 */
export async function latestEmail(to: string, template: string, after?: string): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${BASE_URL}/dev/mailbox/messages?to=${encodeURIComponent(to)}`);
        const { items } = (await response.json()) as { items: MailboxMessage[] };
        found = items.find((message) => message.template === template && message.id !== after);
        return Boolean(found);
      },
      { message: `an email "${template}" to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  if (!found) throw new Error("unreachable: poll passed without a message");
  return found;
}

/** The 6-digit code, which the text part holds on a line of its own. */
export function codeIn(message: MailboxMessage): string {
  const code = /^\s*(\d{6})\s*$/m.exec(message.text)?.[1];
  if (!code) throw new Error(`no code in "${message.subject}"`);
  return code;
}

export function linkIn(message: MailboxMessage, pathPart: string): string {
  const link = message.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(pathPart));
  if (!link) throw new Error(`no ${pathPart} link in "${message.subject}"`);
  return link;
}

/**
 * Every page state the suite visits: a full-page screenshot into test-results/
 * (named for the page and state, for a person to look at) and an axe-core scan
 * that must find no serious or critical violation.
 */
export async function checkPage(page: Page, name: string, options: { axe?: boolean } = {}): Promise<void> {
  // Next streams metadata and re-renders the page after a server action sets cookies, so the <title>
  // can be briefly absent; every page must end up with one, and the scan waits for it.
  await expect(page).toHaveTitle(/\S/);
  await page.screenshot({ path: path.join("test-results", `${name}.png`), fullPage: true });
  // axe runs as a script in the page, which a context without JavaScript cannot do; those pages are scanned with it elsewhere.
  if (options.axe === false) return;
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
  expect(serious, `axe violations on ${name}`).toEqual([]);
}

/** Signs in through the hosted form (main environment unless a pk is given). */
export async function signInThroughForm(page: Page, email: string, password: string, query = ""): Promise<void> {
  await page.goto(`/sign-in${query}`);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}
