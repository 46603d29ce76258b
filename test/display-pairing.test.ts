// The page's side of pairing (display-client/src/pairing.ts), run in Node with a scripted service and
// hand-driven timers: polling, a new code after expiry, back-off on 429 and network faults.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import {
  backoffMs,
  groupCode,
  POLL_MS,
  runPairing,
  type Paired,
  type PairingHooks,
} from '../display-client/src/pairing.js';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network';

/** A scripted service and manual timers: `answers` are taken in order, one per request. */
function harness(answers: Answer[]) {
  const requests: Array<{ method: string; url: string; secret?: string }> = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const seen: { codes: string[]; paired: Paired[]; trouble: Array<string | null>; waits: number[] } = {
    codes: [],
    paired: [],
    trouble: [],
    waits: [],
  };
  const hooks: PairingHooks = {
    onCode: (code) => seen.codes.push(code),
    onPaired: (p) => seen.paired.push(p),
    onTrouble: (t) => seen.trouble.push(t ? `${t.kind} ${t.retryMs}` : null),
  };
  const stop = runPairing(
    {
      fetch: async (url, init) => {
        requests.push({ method: init.method, url, secret: init.headers['Pairing-Secret'] });
        const next = answers.shift();
        if (!next) throw new Error(`no answer scripted for ${init.method} ${url}`);
        if (next === 'network') throw new TypeError('Failed to fetch');
        return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
          status: next.status,
          headers: next.headers,
        });
      },
      setTimeout: (fn, ms) => timers.push({ fn, ms }),
      clearTimeout: () => undefined,
      random: () => 0.5,
    },
    hooks,
  );
  return {
    requests,
    seen,
    stop,
    /** Lets pending requests settle, then runs the next timer; returns its delay. */
    async next(): Promise<number> {
      await new Promise((r) => setTimeout(r, 5));
      const timer = timers.shift();
      if (!timer) throw new Error('no timer pending');
      seen.waits.push(timer.ms);
      timer.fn();
      await new Promise((r) => setTimeout(r, 5));
      return timer.ms;
    },
    pending: () => timers.length,
  };
}

const started = (n: number) => ({
  status: 201,
  body: { pairingId: `p${n}`, code: `ACDEFHJ${n}`, expiresAt: '2026-11-22T13:10:00Z', pollSecret: `s${n}` },
});
const waiting = { status: 200, body: { status: 'waiting', expiresAt: '2026-11-22T13:10:00Z' } };
const gone = { status: 404, body: { error: 'not_found', message: 'Pairing not found, expired or already completed' } };

test('groupCode: groups of four, as a person reads them out', () => {
  assert.is(groupCode('ACDEFHJK'), 'ACDE-FHJK');
  assert.is(groupCode('ACDEFH'), 'ACDE-FH');
  assert.is(groupCode(''), '');
});

test('backoffMs: 2, 4, 8 … 30 s spread by ±25 %, never below Retry-After', () => {
  assert.equal(
    [1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, null, () => 0.5)),
    [2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
  );
  assert.is(
    backoffMs(1, null, () => 0),
    1_500,
  );
  assert.is(
    backoffMs(1, null, () => 1),
    2_500,
  );
  assert.is(
    backoffMs(1, 20, () => 0.5),
    20_000,
  );
});

test('F1 shows the code, F2 is polled every 2 s with the secret, and "paired" hands over the token once and stops', async () => {
  const h = harness([
    started(1),
    waiting,
    waiting,
    { status: 200, body: { status: 'paired', token: 'ahs_x', screenId: 7, monitorId: 3, name: 'Halle' } },
  ]);
  assert.is(await h.next(), POLL_MS);
  assert.is(await h.next(), POLL_MS);
  await h.next();
  assert.equal(h.seen.codes, ['ACDEFHJ1']);
  assert.equal(
    h.requests.map((r) => `${r.method} ${r.url} ${r.secret ?? ''}`),
    [
      'POST /api/v1/screens/pairing ',
      'GET /api/v1/screens/pairing/p1 s1',
      'GET /api/v1/screens/pairing/p1 s1',
      'GET /api/v1/screens/pairing/p1 s1',
    ],
  );
  assert.equal(h.seen.paired, [{ token: 'ahs_x', screenId: 7, monitorId: 3, name: 'Halle' }]);
  assert.is(h.pending(), 0, 'no more polling after the token');
});

test(
  'an expired pairing (404 after "waiting") starts a new one at once; a 404 never seen waiting ' + 'backs off instead',
  async () => {
    const h = harness([started(1), waiting, gone, started(2), gone, started(3)]);
    assert.is(await h.next(), POLL_MS); // → waiting
    assert.is(await h.next(), POLL_MS); // → 404
    assert.is(await h.next(), 0, 'a new pairing right away');
    assert.equal(h.seen.codes, ['ACDEFHJ1', 'ACDEFHJ2']);
    assert.is(await h.next(), POLL_MS); // → 404 for p2, never seen waiting: a fault, not an expiry
    assert.is(await h.next(), 2_000, 'backed off');
    assert.equal(h.seen.codes, ['ACDEFHJ1', 'ACDEFHJ2', 'ACDEFHJ3']);
    assert.equal(h.seen.trouble, ['unreachable 2000', null]);
    h.stop();
  },
);

test(
  '429 waits at least Retry-After and says so; network faults back off 2, 4 … s; the first success ' +
    'clears the trouble',
  async () => {
    const h = harness([
      { status: 429, headers: { 'Retry-After': '7' } },
      'network',
      'network',
      { status: 503 },
      started(1),
      waiting,
    ]);
    assert.is(await h.next(), 7_000);
    assert.is(await h.next(), 4_000);
    assert.is(await h.next(), 8_000);
    assert.is(await h.next(), 16_000);
    assert.equal(h.seen.trouble, [
      'rate_limited 7000',
      'unreachable 4000',
      'unreachable 8000',
      'unreachable 16000',
      null,
    ]);
    assert.equal(h.seen.codes, ['ACDEFHJ1']);
    assert.is(await h.next(), POLL_MS, 'back to polling every 2 s');
    h.stop();
  },
);

test('stopped (the token form was chosen), it neither polls nor reports', async () => {
  const h = harness([
    started(1),
    { status: 200, body: { status: 'paired', token: 'ahs_x', screenId: 7, monitorId: 3, name: 'Halle' } },
  ]);
  await new Promise((r) => setTimeout(r, 5));
  h.stop();
  await h.next();
  assert.equal(h.seen.paired, []);
});

test.run();
