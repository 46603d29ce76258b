// The service's HTTP server, with a graceful close (docs/operating.md "Stopping"): once closing, a new
// request on a kept-alive connection is answered 503 before anything handles it (a client either gets its
// answer or the request had no effect and may be sent again elsewhere), idle connections are ended at
// once, busy ones after their response, and whatever is left when the shutdown timeout runs out is cut.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { answerClientError } from './client-errors.js';

/** An HTTP server that listens and closes gracefully. */
export interface GracefulServer {
  server: http.Server;
  /** Listens on the port and host (0: a free port); resolves with the port. */
  listen(options: { port: number; host: string; backlog: number }): Promise<number>;
  /** Stops accepting and ends idle connections; resolves when the server has closed or the timeout cut it. */
  close(): Promise<void>;
}

/** A server handing every request to `handle` until it closes. */
export function gracefulServer(
  handle: http.RequestListener,
  { shutdownTimeoutMs, log }: { shutdownTimeoutMs: number; log: Pick<Logger, 'warn'> },
): GracefulServer {
  let closing = false;
  const server = http.createServer((req, res) => {
    if (!closing) return void handle(req, res);
    const requestId = randomUUID();
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Retry-After': '1',
      'X-Request-Id': requestId,
      Connection: 'close',
    });
    res.end(JSON.stringify({ error: 'unavailable', message: 'The service is shutting down; try again', requestId }));
  });
  server.on('clientError', answerClientError);
  // Idle keep-alive sockets are closed at shutdown; busy ones after their response.
  const sockets = new Map<Socket, { busy: boolean }>();
  server.on('connection', (socket) => {
    sockets.set(socket, { busy: false });
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const entry = sockets.get(req.socket);
    if (entry) entry.busy = true;
    res.once('finish', () => {
      if (entry) entry.busy = false;
      if (closing) req.socket.end();
    });
  });
  return {
    server,
    listen: ({ port, host, backlog }) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host, backlog }, () => resolve((server.address() as AddressInfo).port));
      }),
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, state] of sockets) if (!state.busy) socket.end();
      const timer = setTimeout(() => {
        log.warn({ open: sockets.size }, 'shutdown timeout: closing remaining connections');
        for (const socket of sockets.keys()) socket.destroy();
      }, shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
