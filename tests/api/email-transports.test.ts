import http from "node:http";
import net from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { outboxEmails } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { renderEmail } from "@/lib/email/render-email";
import { sendEmail } from "@/lib/email/send-email";
import type { OutgoingEmail } from "@/lib/email/types";
import { call } from "../helpers/api";
import { newEnvironment, uniqueEmail } from "../helpers/fixtures";

const ENV_KEYS = ["EMAIL_TRANSPORT", "SMTP_URL", "RESEND_API_KEY", "RESEND_BASE_URL", "EMAIL_FROM", "DEV_MAILBOX", "GATEHOUSE_MODE", "TRUSTED_PROXY_HOPS"];
let savedEnv: Record<string, string | undefined> = {};

beforeEach(() => {
  savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  for (const key of ENV_KEYS) delete process.env[key];
});

afterEach(() => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
  vi.restoreAllMocks();
});

async function signUpCode(to: string, code = "305718"): Promise<OutgoingEmail<"sign_up_code">> {
  const { environmentId } = await newEnvironment();
  return {
    template: "sign_up_code",
    to,
    locale: "en",
    environment: { id: environmentId, applicationName: "Acme Cloud", accentColor: null, logoUrl: null },
    props: { code, expiresInMinutes: 10 },
  };
}

describe("outbox transport and /dev/mailbox/messages", () => {
  it("stores the message, prints one log line, and the mailbox route returns it newest first", async () => {
    const to = uniqueEmail("outbox");
    const message = await signUpCode(to, "305718");
    const info = vi.spyOn(console, "info").mockImplementation(() => {});

    await sendEmail(getDb(), message);
    await sendEmail(getDb(), { ...message, props: { code: "611204", expiresInMinutes: 10 } });
    await sendEmail(getDb(), { ...message, to: uniqueEmail("someone-else") });

    const outboxLines = info.mock.calls.map((args) => String(args[0])).filter((line) => line.startsWith("[outbox]"));
    expect(outboxLines).toHaveLength(3);
    expect(outboxLines[0]).not.toContain("\n");
    expect(outboxLines[0]).toContain(JSON.stringify(to));
    expect(outboxLines[0]).toContain("Your Acme Cloud sign-up code");
    expect(outboxLines[0]).toContain("305718");

    const res = await call("GET", `/dev/mailbox/messages?to=${encodeURIComponent(to.toUpperCase())}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.items).toHaveLength(2);
    const [newest, older] = res.body.items;
    expect(newest).toMatchObject({ to, subject: "Your Acme Cloud sign-up code", template: "sign_up_code", locale: "en" });
    expect(Object.keys(newest).sort()).toEqual(["createdAt", "html", "id", "locale", "subject", "template", "text", "to"]);
    expect(newest.text).toMatch(/(^|\s)611204(\s|$)/m);
    expect(older.text).toMatch(/(^|\s)305718(\s|$)/m);
    expect(newest.html).toContain("<html");
    expect(Date.parse(newest.createdAt)).toBeGreaterThanOrEqual(Date.parse(older.createdAt));

    const rendered = await renderEmail(message);
    expect(older.text).toBe(rendered.text);
    expect(older.html).toBe(rendered.html);

    const all = await call("GET", "/dev/mailbox/messages");
    expect(all.status).toBe(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(3);
    expect(all.body.items.length).toBeLessThanOrEqual(50);
  });

  it("writes through the caller's transaction, so a rollback leaves no message", async () => {
    const to = uniqueEmail("rollback");
    const message = await signUpCode(to);
    vi.spyOn(console, "info").mockImplementation(() => {});
    await expect(
      getDb().transaction(async (tx) => {
        await sendEmail(tx, message);
        throw new Error("the rest of the sign-up failed");
      }),
    ).rejects.toThrow("the rest of the sign-up failed");
    expect(await getDb().select().from(outboxEmails).where(eq(outboxEmails.toAddress, to))).toHaveLength(0);
  });

  it("answers 404 in production mode, unless DEV_MAILBOX=1", async () => {
    process.env.GATEHOUSE_MODE = "production";
    const hidden = await call("GET", "/dev/mailbox/messages");
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("resource_not_found");

    process.env.DEV_MAILBOX = "1";
    expect((await call("GET", "/dev/mailbox/messages")).status).toBe(200);
  });

  it("regression: answers only on loopback, judged by the socket address and not a header the client writes", async () => {
    const from = (chain: string) => call("GET", "/dev/mailbox/messages", { headers: { "x-forwarded-for": chain } });
    expect((await from("127.0.0.1")).status).toBe(200);
    expect((await from("::1")).status).toBe(200);
    for (const chain of ["203.0.113.9", "127.0.0.1, 203.0.113.9"]) {
      const remote = await from(chain);
      expect(remote.status, chain).toBe(404);
      expect(remote.body.code).toBe("resource_not_found");
    }
    // A reverse proxy on this machine makes every socket loopback; the client it names must be local too.
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect((await from("203.0.113.9, 127.0.0.1")).status).toBe(404);
    expect((await from("127.0.0.1, 127.0.0.1")).status).toBe(200);
  });

  it("regression: with TRUSTED_PROXY_HOPS=0 a reverse proxy on this host does not open the mailbox to the internet (forwarded addresses and Host must be loopback too)", async () => {
    process.env.TRUSTED_PROXY_HOPS = "0";
    // The socket is loopback in every case here: the proxy on this machine connected.
    const mailbox = (headers: Record<string, string>) => call("GET", "/dev/mailbox/messages", { headers: { "x-forwarded-for": "127.0.0.1", ...headers } });
    const proxied = await mailbox({ "x-forwarded-for": "203.0.113.5, 127.0.0.1", host: "auth.example.com" });
    expect(proxied.status).toBe(404);
    expect(proxied.body.code).toBe("resource_not_found");
    // Each sign of a proxy on its own.
    const proxySigns: Record<string, string>[] = [
      { "x-forwarded-for": "203.0.113.5, 127.0.0.1" },
      { host: "auth.example.com" },
      { host: "auth.example.com:443" },
      { "x-forwarded-host": "auth.example.com" },
      { "x-real-ip": "203.0.113.5" },
      { forwarded: "for=203.0.113.5;proto=https" },
      { forwarded: 'for="[2001:db8::1]:4711"' },
      { forwarded: "for=127.0.0.1;host=auth.example.com" },
    ];
    for (const headers of proxySigns) {
      expect((await mailbox(headers)).status, JSON.stringify(headers)).toBe(404);
    }
    // This machine by any loopback name (the e2e runs read it at localhost, 127.0.0.1 and *.localhost).
    for (const host of ["localhost", "localhost:3000", "acme.localhost:3311", "127.0.0.1:3311", "[::1]:3000"]) {
      expect((await mailbox({ host })).status, host).toBe(200);
    }
    expect((await mailbox({ "x-forwarded-for": "::1, 127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: 'for="[::1]:4711";host=localhost:3000' })).status).toBe(200);
  });
});

describe("smtp transport", () => {
  it("delivers the message with a text and an HTML part to a real SMTP server", async () => {
    const sink = await startSmtpSink();
    try {
      process.env.EMAIL_TRANSPORT = "smtp";
      process.env.SMTP_URL = `smtp://127.0.0.1:${sink.port}`;
      process.env.EMAIL_FROM = "Acme Cloud <auth@acme.example>";
      const to = uniqueEmail("smtp");
      const message = await signUpCode(to, "774512");
      const rendered = await renderEmail(message);

      await sendEmail(getDb(), message);

      expect(sink.messages).toHaveLength(1);
      const received = sink.messages[0];
      expect(received?.from).toBe("auth@acme.example");
      expect(received?.to).toEqual([to]);
      const mail = parseMime(received?.raw ?? "");
      expect(mail.headers.get("subject")).toBe("Your Acme Cloud sign-up code");
      expect(mail.headers.get("content-type")).toMatch(/^multipart\/alternative/);
      expect(mail.parts.map((part) => part.type)).toEqual(["text/plain", "text/html"]);
      expect(mail.parts[0]?.body.replace(/\r\n/g, "\n")).toBe(rendered.text);
      expect(mail.parts[0]?.body).toMatch(/(^|\s)774512(\s|$)/m);
      expect(mail.parts[1]?.body.replace(/\r\n/g, "\n")).toBe(rendered.html);
      // Other transports keep no bodies.
      expect(await getDb().select().from(outboxEmails).where(eq(outboxEmails.toAddress, to))).toHaveLength(0);
    } finally {
      await sink.close();
    }
  });

  it("rejects with email_unavailable when the SMTP server is down, logging no address or code", async () => {
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://user:hunter2@127.0.0.1:${await deadPort()}`;
    const to = uniqueEmail("smtp-down");
    const message = await signUpCode(to, "998877");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    const failure = await sendEmail(getDb(), message).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe("email_unavailable");
    expect((failure as AppError).status).toBe(503);

    const logged = errors.mock.calls.map((args) => String(args[0])).join("\n");
    expect(logged).toContain("email.send_failed");
    expect(logged).toContain('"transport":"smtp"');
    for (const secret of [to, "998877", "hunter2"]) expect(logged).not.toContain(secret);
  });

  it("rejects with email_unavailable when EMAIL_TRANSPORT=smtp has no SMTP_URL", async () => {
    process.env.EMAIL_TRANSPORT = "smtp";
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(sendEmail(getDb(), await signUpCode(uniqueEmail()))).rejects.toMatchObject({ code: "email_unavailable" });
  });
});

describe("resend transport", () => {
  it("posts both parts to the Resend API and maps an API error to email_unavailable", async () => {
    const api = await startFakeResend();
    try {
      process.env.EMAIL_TRANSPORT = "resend";
      process.env.RESEND_API_KEY = "re_test_key_1";
      process.env.RESEND_BASE_URL = api.url;
      const to = uniqueEmail("resend");
      const message = await signUpCode(to, "120934");
      await sendEmail(getDb(), message);

      expect(api.requests).toHaveLength(1);
      const request = api.requests[0];
      expect(request?.path).toBe("/emails");
      expect(request?.authorization).toBe("Bearer re_test_key_1");
      expect(request?.body).toMatchObject({ to, subject: "Your Acme Cloud sign-up code", from: "Gatehouse <no-reply@localhost>" });
      expect(String(request?.body.text)).toMatch(/(^|\s)120934(\s|$)/m);
      expect(String(request?.body.html)).toContain("120934");

      api.failNext = true;
      process.env.RESEND_API_KEY = "re_test_key_2";
      vi.spyOn(console, "error").mockImplementation(() => {});
      await expect(sendEmail(getDb(), message)).rejects.toMatchObject({ code: "email_unavailable" });
    } finally {
      await api.close();
    }
  });
});

interface ReceivedMail {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** A real SMTP server on an ephemeral loopback port that keeps what it receives. */
async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom;
        messages.push({
          from: from ? from.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A loopback port with nothing listening on it. */
async function deadPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Stands in for api.resend.com (the official client honours RESEND_BASE_URL). */
async function startFakeResend() {
  const state = {
    requests: [] as { path: string | undefined; authorization: string | undefined; body: Record<string, unknown> }[],
    failNext: false,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (state.failNext) {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ statusCode: 422, name: "validation_error", message: "Invalid `from` field." }));
        return;
      }
      state.requests.push({ path: req.url, authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "email_fake_1" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

interface MimePart {
  type: string;
  body: string;
}

/** Just enough MIME to read back what nodemailer sent: headers, and the parts of a multipart/alternative body. */
function parseMime(raw: string): { headers: Map<string, string>; parts: MimePart[] } {
  const { headers, body } = splitHeaders(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get("content-type") ?? "")?.[1];
  if (!boundary) return { headers, parts: [] };
  const sections = body.split(`--${boundary}`).slice(1, -1);
  const parts = sections.map((section) => {
    const part = splitHeaders(section.replace(/^\r\n/, ""));
    const type = (part.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    return { type, body: decodeBody(part.body.replace(/\r\n$/, ""), part.headers.get("content-transfer-encoding") ?? "7bit") };
  });
  return { headers, parts };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, end).replace(/\r\n[ \t]+/g, " ");
  const headers = new Map<string, string>();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body: raw.slice(end + 4) };
}

function decodeBody(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/quoted-printable/i.test(encoding)) {
    const joined = body.replace(/=\r\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined.slice(i + 1, i + 3);
      if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(joined[i] ?? "", "utf8"));
    }
    return Buffer.from(bytes).toString("utf8");
  }
  return body;
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8"),
    );
}
