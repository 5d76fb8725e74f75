import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { CSSProperties } from "react";
import { mailboxOpenTo } from "@/lib/email/email-settings";
import { listMailboxMessages, MAILBOX_LIMIT } from "@/lib/email/mailbox";

// Reads the outbox on every request; never prerendered at build time.
export const dynamic = "force-dynamic";

export const metadata = { title: "Mailbox · Gatehouse", robots: { index: false } };

interface MailboxPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// GET /dev/mailbox?to=<email> — the outbox transport's messages, newest first (development only, loopback only).
export default async function MailboxPage({ searchParams }: MailboxPageProps) {
  if (!mailboxOpenTo(new Request("http://localhost/dev/mailbox", { headers: await headers() }))) notFound();
  const raw = (await searchParams).to;
  const to = (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  const messages = await listMailboxMessages({ to });
  const json = `/dev/mailbox/messages${to ? `?to=${encodeURIComponent(to)}` : ""}`;

  return (
    <main style={styles.main}>
      <h1 style={{ margin: "0 0 4px" }}>Mailbox</h1>
      <p style={styles.muted}>
        Messages sent with <code>EMAIL_TRANSPORT=outbox</code>, newest first, at most {MAILBOX_LIMIT}. As JSON:{" "}
        <a href={json}>{json}</a>
      </p>
      <form method="get" style={{ display: "flex", gap: "8px", margin: "16px 0 24px" }}>
        <input type="email" name="to" defaultValue={to} placeholder="recipient@example.com" aria-label="Recipient" style={styles.input} />
        <button type="submit">Filter</button>
        {to ? <a href="/dev/mailbox">Show all</a> : null}
      </form>
      {messages.length === 0 ? <p>No messages{to ? ` to ${to}` : ""}.</p> : null}
      {messages.map((message) => (
        <article key={message.id} style={styles.card}>
          <h2 style={{ fontSize: "17px", margin: "0 0 4px" }}>{message.subject}</h2>
          <p style={styles.muted}>
            To <a href={`/dev/mailbox?to=${encodeURIComponent(message.to)}`}>{message.to}</a> ·{" "}
            <time dateTime={message.createdAt.toISOString()}>{message.createdAt.toISOString()}</time> · {message.template} ·{" "}
            {message.locale}
          </p>
          <pre style={styles.pre}>{message.text}</pre>
          <details>
            <summary>HTML</summary>
            {/* sandbox="" : the email's markup runs no scripts and gets no access to this origin. */}
            <iframe title={`HTML of ${message.subject}`} sandbox="" srcDoc={message.html} style={styles.frame} />
          </details>
        </article>
      ))}
    </main>
  );
}

const styles = {
  main: { fontFamily: "system-ui, sans-serif", margin: "0 auto", maxWidth: "860px", padding: "24px" },
  muted: { color: "#555", fontSize: "14px", margin: "0 0 12px" },
  input: { flex: "1", padding: "6px 8px" },
  card: { border: "1px solid #ddd", borderRadius: "8px", marginBottom: "16px", padding: "16px" },
  pre: { background: "#f6f6f6", overflowX: "auto", padding: "12px", whiteSpace: "pre-wrap", wordBreak: "break-all" },
  frame: { border: "1px solid #ddd", height: "560px", marginTop: "8px", width: "100%" },
} satisfies Record<string, CSSProperties>;
