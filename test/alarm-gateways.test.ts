// The SMS and voice gateways' sender (server/areas/alarms/gateways.ts): one POST of JSON with the bearer
// token over connections kept alive; what each kind of answer, or none, makes of the try.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import { suite } from './helpers/suite.js';
import { gatewaySender } from '../server/areas/alarms/gateways.js';
import { DeliveryError } from '../server/areas/alarms/outbox.js';
import type { DeliveryItem } from '../server/areas/alarms/models.js';

interface Seen {
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: number;
}

const s = suite('SMS and voice gateways');

const item = (id: string, target = '00491701234567') => ({ id, target }) as DeliveryItem;
const text = async (d: DeliveryItem, alarmId: number) => `Alarm ${alarmId} für ${d.id}: Brand 🔥`;

/** A gateway answering each request as `answer` says. */
async function gateway(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const sockets = new Map<unknown, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
      seen.push({ headers: req.headers, body, socket: sockets.get(req.socket)! });
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function outcome(p: Promise<void>): Promise<string> {
  try {
    await p;
    return 'sent';
  } catch (err) {
    assert.instance(err, DeliveryError);
    return `${(err as DeliveryError).message}${(err as DeliveryError).final ? ' (final)' : ''}`;
  }
}

s('sends {to, text, alarmId, deliveryId} with the token; 2xx is sent; connections are kept alive', async () => {
  const g = await gateway((_req, res) => res.writeHead(202).end('{"queued":true}'));
  try {
    const send = gatewaySender(g.url, 'secret', 5_000, text);
    for (let i = 0; i < 5; i++) await send(item(`d${i}`), 42, new AbortController().signal);
    assert.is(g.seen.length, 5);
    assert.equal(JSON.parse(g.seen[0]!.body), {
      to: '+491701234567',
      text: 'Alarm 42 für d0: Brand 🔥',
      alarmId: 42,
      deliveryId: 'd0',
    });
    assert.is(g.seen[0]!.headers.authorization, 'Bearer secret');
    assert.is(g.seen[0]!.headers['content-type'], 'application/json');
    assert.is(Number(g.seen[0]!.headers['content-length']), Buffer.byteLength(g.seen[0]!.body));
    assert.equal(new Set(g.seen.map((x) => x.socket)).size, 1, 'one connection for one request at a time');
  } finally {
    await g.close();
  }
});

s('a refusal or a redirect is final, a server error, throttling or a timeout is tried again', async () => {
  const statuses = [400, 404, 408, 429, 500, 503, 301, 307];
  let next = 0;
  const g = await gateway((_req, res) => res.writeHead(statuses[next++]!).end('nein'));
  try {
    const send = gatewaySender(g.url, undefined, 5_000, text);
    const got = [];
    for (let i = 0; i < statuses.length; i++)
      got.push(await outcome(send(item(`d${i}`), 1, new AbortController().signal)));
    assert.equal(got, [
      'gateway answered 400 (final)',
      'gateway answered 404 (final)',
      'gateway answered 408',
      'gateway answered 429',
      'gateway answered 500',
      'gateway answered 503',
      'gateway answered 301, a redirect, which is not followed (final)',
      'gateway answered 307, a redirect, which is not followed (final)',
    ]);
    assert.is(g.seen[0]!.headers.authorization, undefined, 'no token configured, none sent');
  } finally {
    await g.close();
  }
});

s("no answer in time, a gateway that is not there, the try's end, none configured", async () => {
  const g = await gateway(() => {
    // Never answers.
  });
  try {
    const send = gatewaySender(g.url, 't', 200, text);
    assert.is(
      await outcome(send(item('slow'), 1, new AbortController().signal)),
      'gateway did not answer within 200 ms',
    );
    const stop = new AbortController();
    const pending = outcome(gatewaySender(g.url, 't', 60_000, text)(item('stopped'), 1, stop.signal));
    // Once the gateway has it.
    while (!g.seen.some((x) => x.body.includes('stopped'))) await new Promise((r) => setTimeout(r, 10));
    stop.abort(new Error('the try ran out'));
    assert.is(await pending, 'gateway unreachable (the try ran out)');
  } finally {
    await g.close();
  }
  const gone = gatewaySender(g.url, 't', 5_000, text);
  assert.match(
    await outcome(gone(item('gone'), 1, new AbortController().signal)),
    /^gateway unreachable \(ECONNREFUSED\)$/,
  );
  assert.is(
    await outcome(gatewaySender(undefined, 't', 5_000, text)(item('none'), 1, new AbortController().signal)),
    'no gateway configured (final)',
  );
});

s('an answer counts by its status, however slowly its body comes', async () => {
  const g = await gateway((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"queued":');
    // The rest never comes.
  });
  try {
    const send = gatewaySender(g.url, 't', 300, text);
    assert.is(await outcome(send(item('slow body'), 1, new AbortController().signal)), 'sent');
  } finally {
    await g.close();
  }
});

s('a token Node cannot send in a header fails for good, with why', async () => {
  const g = await gateway((_req, res) => res.writeHead(200).end());
  try {
    const send = gatewaySender(g.url, 'secret\n', 5_000, text);
    assert.match(
      await outcome(send(item('d'), 1, new AbortController().signal)),
      /^the gateway request could not be made \(.+\) \(final\)$/,
    );
    assert.is(g.seen.length, 0);
  } finally {
    await g.close();
  }
});

s('a kept connection the gateway drops as the next request comes: that try fails, to be tried again', async () => {
  let n = 0;
  const g = await gateway((req, res) => {
    // The second request, on the kept connection: dropped unanswered, as a server closing idle ones does.
    if (++n === 2) req.socket.destroy();
    else res.writeHead(200).end();
  });
  try {
    const send = gatewaySender(g.url, 't', 5_000, text);
    assert.is(await outcome(send(item('first'), 1, new AbortController().signal)), 'sent');
    assert.is(await outcome(send(item('second'), 1, new AbortController().signal)), 'gateway unreachable (ECONNRESET)');
    assert.is(await outcome(send(item('second'), 1, new AbortController().signal)), 'sent');
    assert.equal(
      g.seen.map((x) => [JSON.parse(x.body).deliveryId, x.socket]),
      [
        ['first', 0],
        ['second', 0],
        ['second', 1],
      ],
    );
  } finally {
    await g.close();
  }
});

s('a gateway that closes its kept connection is reached again by a new one', async () => {
  const g = await gateway((_req, res) => res.writeHead(200, { connection: 'close' }).end());
  try {
    const send = gatewaySender(g.url, 't', 5_000, text);
    for (let i = 0; i < 3; i++) assert.is(await outcome(send(item(`d${i}`), 1, new AbortController().signal)), 'sent');
    assert.is(new Set(g.seen.map((x) => x.socket)).size, 3);
  } finally {
    await g.close();
  }
});

s("an alarm's many tries reach a gateway over at most 64 connections: the rest wait for one", async () => {
  // Answers are held until 64 requests are in, then given; later requests are answered at once.
  const held: http.ServerResponse[] = [];
  let open = false;
  const g = await gateway((_req, res) => {
    if (open) return void res.writeHead(202).end();
    held.push(res);
    if (held.length === 64) {
      open = true;
      for (const r of held) r.writeHead(202).end();
    }
  });
  try {
    const send = gatewaySender(g.url, 'secret', 10_000, text);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => outcome(send(item(`d${i}`), 42, new AbortController().signal))),
    );
    assert.equal(
      results.filter((r) => r !== 'sent'),
      [],
    );
    assert.is(g.seen.length, 100);
    assert.is(new Set(g.seen.map((x) => x.socket)).size, 64, 'the connections the gateway saw');
  } finally {
    await g.close();
  }
});

s.run();
