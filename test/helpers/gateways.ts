// A fake SMS or voice gateway: a real HTTP server on 127.0.0.1 that records what the service POSTs and
// answers what the test says (200 unless told otherwise).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayRequest {
  authorization: string | undefined;
  body: { to: string; text: string; alarmId: number; deliveryId: string };
  at: number;
}

export interface FakeGateway {
  url: string;
  requests: GatewayRequest[];
  /** The status the next requests get (by the request's body); default 200. */
  answer: (request: GatewayRequest) => number;
  close(): Promise<void>;
  /** Every request as it arrived, before anything answered it (those held or reset included). */
  arrived: GatewayRequest[];
  /** Every answer given, with its status and when: a request counts as taken by its 2xx answer. */
  answers: Array<{ request: GatewayRequest; status: number; at: number }>;
  /**
   * Asked before each answer: it may wait (a slow gateway) and may say 'reset' (the connection is
   * dropped without an answer, as a gateway that crashes mid-request does). Unset: answered at once.
   */
  before?: (request: GatewayRequest) => Promise<'reset' | void> | 'reset' | void;
}

/** Starts a fake gateway. */
export async function startGateway(): Promise<FakeGateway> {
  const gateway: FakeGateway = {
    url: '',
    requests: [],
    answer: () => 200,
    arrived: [],
    answers: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      const request = { authorization: req.headers.authorization, body: JSON.parse(text), at: Date.now() };
      gateway.arrived.push(request);
      if (gateway.before && (await gateway.before(request)) === 'reset') {
        req.socket.destroy();
        return;
      }
      gateway.requests.push(request);
      const status = gateway.answer(request);
      gateway.answers.push({ request, status, at: Date.now() });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  return gateway;
}
