// The far side of bench/alarm-fanout.ts, in a process of its own: a Web Push service that checks VAPID
// and decrypts every push (test/helpers/web-push-fake.ts) and two SMS/voice gateways, each noting when
// every request had arrived. The parent asks by message: `subscribe` (n subscriptions), `times` (what arrived since it last asked).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWebPushFake } from '../test/helpers/web-push-fake.js';

async function gateway(arrivals: number[]): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(Date.now());
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
}

const push = await startWebPushFake();
const sms: number[] = [];
const call: number[] = [];
const urls = { push: push.url, sms: await gateway(sms), call: await gateway(call) };

process.on('message', (message: { type: 'subscribe'; count: number } | { type: 'times' }) => {
  if (message.type === 'subscribe')
    process.send!({ subscriptions: Array.from({ length: message.count }, () => push.subscribe().json) });
  if (message.type === 'times') {
    const pushes = push.received.splice(0);
    process.send!({
      push: pushes.filter((p) => p.status === 201).map((p) => p.at),
      refused: pushes.filter((p) => p.status !== 201).map((p) => p.problem),
      sms: sms.splice(0),
      call: call.splice(0),
    });
  }
});
process.send!({ urls });
