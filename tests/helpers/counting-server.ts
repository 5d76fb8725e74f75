import http from "node:http";
import type { AddressInfo } from "node:net";

export interface CountingServer {
  port: number;
  /** TCP connections accepted: a TLS client that was refused before connecting makes none. */
  connections: number;
  /** HTTP requests received, by path. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A plain HTTP server on 127.0.0.1 that answers every request with `status` and counts
 * what reached it: the witness that a refused outbound request was never sent.
 */
export async function startCountingServer(status = 200): Promise<CountingServer> {
  const counts: CountingServer = { port: 0, connections: 0, requests: [], close: async () => {} };
  const server = http.createServer((request, response) => {
    counts.requests.push(request.url ?? "");
    response.writeHead(status, { "content-type": "application/json" }).end("{}");
  });
  server.on("connection", () => {
    counts.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counts.port = (server.address() as AddressInfo).port;
  counts.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return counts;
}
