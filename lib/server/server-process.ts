import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

/**
 * Production servers as child processes, for the benchmark and the scale-out test:
 * `next start` alone, or the fast path server (scripts/server.ts) that `npm start` runs.
 */
export type ServerKind = "next-start" | "fast-path";

export interface ServerProcess {
  kind: ServerKind;
  port: number;
  baseUrl: string;
  pid: number;
  /** The last lines the server printed, for failure messages. */
  output(): string;
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

const OUTPUT_LINES = 60;

/** A port the OS has just handed out and released; good enough for local child servers. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function command(kind: ServerKind, root: string, port: number): { file: string; args: string[] } {
  // The real binaries, not npx/npm wrappers: killing a wrapper's pid orphans the server.
  if (kind === "next-start") return { file: path.join(root, "node_modules/.bin/next"), args: ["start", "-p", String(port)] };
  return { file: process.execPath, args: ["--import", "tsx", path.join(root, "scripts/server.ts")] };
}

/**
 * Starts a server on `port` in its own process group (so stopping it also stops
 * anything it spawned) and resolves once `readyPath` answers, or rejects with its output.
 */
export async function startServerProcess(options: {
  kind: ServerKind;
  port: number;
  env: NodeJS.ProcessEnv;
  root?: string;
  readyPath?: string;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const root = options.root ?? process.cwd();
  const { file, args } = command(options.kind, root, options.port);
  const child = spawn(file, args, {
    cwd: root,
    env: { ...options.env, PORT: String(options.port) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (data: Buffer) => {
    lines.push(...data.toString("utf8").split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_LINES));
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const baseUrl = `http://127.0.0.1:${options.port}`;
  const handle: ServerProcess = {
    kind: options.kind,
    port: options.port,
    baseUrl,
    pid: child.pid ?? -1,
    output: () => lines.join("\n"),
    stop: (graceMs = 5_000) => stopGroup(child, exited, graceMs),
  };
  try {
    await waitUntilReady(`${baseUrl}${options.readyPath ?? "/_svc/client"}`, exited, options.timeoutMs ?? 90_000);
  } catch (error) {
    await handle.stop(1_000);
    throw new Error(`${options.kind} server on port ${options.port} did not start: ${(error as Error).message}\n${handle.output()}`);
  }
  return handle;
}

async function waitUntilReady(url: string, exited: Promise<void>, timeoutMs: number): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error("the process exited");
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
}

async function stopGroup(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (child.exitCode !== null || child.signalCode !== null || pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
  // Anything left in the group (a grandchild that ignored SIGTERM) goes too.
  signalGroup("SIGKILL");
}
