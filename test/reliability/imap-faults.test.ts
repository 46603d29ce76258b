// Faults of the e-mail input (RELIABILITY.md "Faults of the e-mail input", docs/inputs.md "E-mail"): two
// real service processes (server/main.ts) on one database watch one Dovecot mailbox, one input of kind
// imap with an allowed sender and a profile. The IMAP server is stopped while mails arrive, restarted
// under the watchers' IDLE, made slow and stalled by a proxy of the test's own, and made to lie: it
// forgets its UIDs (a new UIDVALIDITY) and the messages' \Seen. Each mail carries its own dispatch number,
// and each phase ends when every mail it sent is noted by the input and \Seen in the folder; then it
// counts, per mail, the documents the input noted: each mail must have raised exactly once. Times are
// figures; the assertions are on what the service promises, within deadlines far above the figures.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../server/db/database.js';
import { serviceModels } from '../../server/areas/models.js';
import { IdentityCommands } from '../../server/identity/commands.js';
import { startDovecot, type Mailbox } from '../helpers/dovecot.js';
import { eventually } from '../helpers/fleet.js';
import { client } from '../helpers/http.js';
import { spawnService, type ServiceProcess } from '../helpers/processes.js';
import { otherDatabase } from '../helpers/service.js';
import { suite } from '../helpers/suite.js';
import { figure } from './figures.js';

interface Ctx {
  mailbox: Mailbox;
  proxy: SlowProxy;
  procs: ServiceProcess[];
  orgId: number;
  apiKey: string;
  inputId: number;
  /** Every dispatch number sent, by phase. */
  sent: Map<string, string[]>;
}

const s = suite<Ctx>('reliability: faults of the e-mail input', { procs: [], sent: new Map() } as unknown as Ctx);

const SENDER = 'alarm@ils-aachen.example';
const PROFILE = { fields: { event: '^Stichwort:\\s*(.+?)\\s*$', dispatchNumber: '^Einsatznummer:\\s*(\\S+)' } };
// The watchers look every second (production: 10 s); the answer time is then its floor, 10 s.
const POLL_MS = 1_000;
// Far above what a recovery takes here (a few seconds), far below ImapFlow's own five minutes.
const RECOVERY_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Waits for a condition, as long as a recovery may take. */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = RECOVERY_MS) =>
  eventually(read, done, what, timeoutMs);

/**
 * A TCP proxy in front of Dovecot. A connection passes through as it is made; `slow` delays every chunk
 * of the connections open now (both ways, in order) by 1–3 s, `stall` makes them forward nothing more,
 * `trickle` lets the server's answers through a byte a second. Connections made later pass at once.
 */
interface SlowProxy {
  port: number;
  /** Connections made so far. */
  made: number;
  slow(): void;
  stall(): void;
  trickle(): void;
  close(): Promise<void>;
}

async function slowProxy(target: number): Promise<SlowProxy> {
  type Mode = 'pass' | 'slow' | 'stall' | 'trickle';
  const links = new Set<{ mode: Mode; sockets: net.Socket[] }>();
  const proxy = { made: 0 } as SlowProxy;
  // One direction: chunks in order, each after the link's delay.
  function pump(from: net.Socket, to: net.Socket, link: { mode: Mode }, answers: boolean) {
    const chunks: Buffer[] = [];
    let busy = false;
    from.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!busy) void drain();
    });
    async function drain() {
      busy = true;
      while (chunks.length && !to.destroyed) {
        if (link.mode === 'stall') break;
        if (link.mode === 'trickle' && answers) {
          const chunk = chunks.shift()!;
          for (let i = 0; i < chunk.length && !to.destroyed; i++) {
            to.write(chunk.subarray(i, i + 1));
            await sleep(1_000);
          }
          continue;
        }
        if (link.mode === 'slow') await sleep(1_000 + Math.random() * 2_000);
        to.write(chunks.shift()!);
      }
      busy = false;
    }
  }
  const server = net.createServer((downstream) => {
    proxy.made++;
    const upstream = net.connect(target, '127.0.0.1');
    const link = { mode: 'pass' as Mode, sockets: [downstream, upstream] };
    links.add(link);
    const end = () => {
      links.delete(link);
      downstream.destroy();
      upstream.destroy();
    };
    for (const socket of link.sockets) socket.on('error', end).on('close', end);
    pump(downstream, upstream, link, false);
    pump(upstream, downstream, link, true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const set = (mode: Mode) => () => {
    for (const link of links) link.mode = mode;
  };
  return Object.assign(proxy, {
    port: (server.address() as net.AddressInfo).port,
    slow: set('slow'),
    stall: set('stall'),
    trickle: set('trickle'),
    async close() {
      for (const link of links) for (const socket of link.sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

const key = (ctx: Ctx) => client(ctx.procs[0].url, { apiKey: ctx.apiKey });

/**
 * An alarm mail of the dispatch centre, `number` its dispatch number; without a Message-ID if told, or
 * with the one given, and from another sender if told.
 */
function alarmMail(number: string, { messageId = true as boolean | string, from = SENDER } = {}): string {
  const id =
    typeof messageId === 'string' ? messageId : `<${number}.${randomBytes(4).toString('hex')}@ils-aachen.example>`;
  return [
    `From: Leitstelle <${from}>`,
    'To: alarm@ff-aachen.example',
    `Subject: Alarm ${number}`,
    `Date: ${new Date().toUTCString()}`,
    ...(messageId ? [`Message-ID: ${id}`] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Einsatznummer: ${number}`,
    'Stichwort: B3 Wohnungsbrand',
    '',
  ].join('\r\n');
}

/** A new dispatch number of the phase, counted as sent. */
function number(ctx: Ctx, phase: string): string {
  const list = ctx.sent.get(phase) ?? [];
  ctx.sent.set(phase, list);
  const made = `${phase}-${list.length + 1}`;
  list.push(made);
  return made;
}

const documents = async (ctx: Ctx) =>
  (await key(ctx).get(`/api/v1/inputs/${ctx.inputId}/documents`)).body as Array<Record<string, any>>;
const input = async (ctx: Ctx) => (await key(ctx).get(`/api/v1/inputs/${ctx.inputId}`)).body as Record<string, any>;

/** The documents the input noted for a dispatch number (the number is the mail's). */
const of = (list: Array<Record<string, any>>, dispatch: string) =>
  list.filter((d) => typeof d.text === 'string' && new RegExp(`Einsatznummer: ${dispatch}\\b`).test(d.text));

/** Waits until the mail of `dispatch` has raised its alarm; the time it took. */
async function raised(ctx: Ctx, dispatch: string, from = now(), timeoutMs = RECOVERY_MS): Promise<number> {
  await until(
    () => documents(ctx),
    (list) => of(list, dispatch).some((d) => d.alarmId),
    `the alarm of ${dispatch}`,
    timeoutMs,
  );
  return now() - from;
}

/** Every mail sent so far noted and every message \Seen, then two more looks of both processes. */
async function settled(ctx: Ctx): Promise<void> {
  const all = [...ctx.sent.values()].flat();
  await until(
    async () => ({ list: await documents(ctx), messages: await ctx.mailbox.messages() }),
    ({ list, messages }) => all.every((n) => of(list, n).length > 0) && messages.every((m) => m.seen),
    'every mail noted and \\Seen',
  );
  await sleep(2 * POLL_MS);
}

/**
 * The end of a phase: every mail sent so far noted and every message \Seen, then a few more looks of both
 * processes; then each of the phase's mails must have raised exactly once. Prints the phase's counts.
 */
async function tally(ctx: Ctx, phase: string): Promise<void> {
  const all = [...ctx.sent.values()].flat();
  await settled(ctx);
  const list = await documents(ctx);
  const mine = ctx.sent.get(phase) ?? [];
  const counts = mine.map((n) => of(list, n).filter((d) => d.outcome === 'raised' || d.outcome === 'merged').length);
  const twice = counts.filter((c) => c > 1).length;
  const lost = counts.filter((c) => c === 0).length;
  figure(
    `imap ${phase}: mails sent / alarms raised / raised twice / lost`,
    `${mine.length} / ${counts.filter((c) => c > 0).length} / ${twice} / ${lost}`,
  );
  // Every mail of every phase, not only this one's, is in the list once: a fault must not raise an old one again.
  for (const n of all) assert.is(of(list, n).length, 1, `${n}: ${JSON.stringify(of(list, n))}`);
  assert.equal([twice, lost], [0, 0]);
}

const settings = (ctx: Ctx, port: number) => ({
  host: '127.0.0.1',
  port,
  tls: false,
  user: ctx.mailbox.user,
  password: ctx.mailbox.password,
  allowedSenders: ['@ils-aachen.example'],
});

s.before(async (ctx) => {
  ctx.mailbox = await startDovecot();
  ctx.proxy = await slowProxy(ctx.mailbox.port);
  const uri = otherDatabase(`reliability-imap-faults-${process.pid}`);
  const db = await openDatabase(uri, serviceModels);
  try {
    const identity = new IdentityCommands(db);
    const org = await identity.createOrganization('Faults of the e-mail input');
    ctx.orgId = org.id;
    ctx.apiKey = (await identity.createApiKey(org.id, 'leitstelle')).token;
  } finally {
    await db.close();
  }
  const env = {
    MONGODB_URI: uri,
    RATE_LIMIT_PER_SECOND: '0',
    // Both processes decrypt the input's password with one key.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    INPUT_IMAP_POLL_MS: String(POLL_MS),
    INPUT_IMAP_RECONCILE_MS: '300',
    INPUT_IMAP_PORTS: `143,993,${ctx.mailbox.port},${ctx.proxy.port}`,
  };
  // Two minutes to start: the machine may be busy with other tests.
  ctx.procs = await Promise.all([spawnService(env, 120_000), spawnService(env, 120_000)]);
  const made = await key(ctx).post('/api/v1/inputs', {
    organizationID: ctx.orgId,
    name: 'Leitstelle per E-Mail',
    kind: 'imap',
    settings: settings(ctx, ctx.mailbox.port),
    profile: PROFILE,
    channels: [],
    active: true,
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  ctx.inputId = made.body.id;
  await until(
    () => input(ctx),
    (i) => i.lastError === null,
    'the input connected',
  );
  // The watchers are at work: a first mail raises.
  await ctx.mailbox.deliver(alarmMail(number(ctx, 'start')));
  await tally(ctx, 'start');
});

s.after(async (ctx) => {
  for (const p of ctx.procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await ctx.proxy?.close();
  await ctx.mailbox?.close();
});

s(
  'down: mails that came while the server was away raise once each when it is back, and lastError said why',
  async (ctx) => {
    await ctx.mailbox.down();
    const downAt = now();
    // The mail server's delivery goes on while IMAP is away: these are due when it comes back.
    for (let i = 0; i < 3; i++) await ctx.mailbox.drop(alarmMail(number(ctx, 'down')));
    const told = await until(
      () => input(ctx),
      // First, maybe, that the server closed the connection; then that it refuses new ones.
      (i) => typeof i.lastError === 'string' && i.lastError.includes('refused'),
      'lastError while the server is down',
    );
    figure('imap down: from the server stopping to lastError', seconds(now() - downAt));
    assert.is(told.lastError, `the server 127.0.0.1:${ctx.mailbox.port} refused the connection`);
    assert.not.match(JSON.stringify(told), ctx.mailbox.password);
    await sleep(4_000); // a few failed attempts each, so that the backoff has grown
    await ctx.mailbox.up();
    const upAt = now();
    for (let i = 0; i < 2; i++) await ctx.mailbox.deliver(alarmMail(number(ctx, 'down')));
    for (const n of ctx.sent.get('down')!) await raised(ctx, n, upAt);
    figure('imap down: from the server back to the last due mail raised', seconds(now() - upAt));
    await until(
      () => input(ctx),
      (i) => i.lastError === null,
      'lastError cleared',
    );
    await tally(ctx, 'down');
  },
);

s('restarted mid-IDLE: the watchers reconnect, and the next mail raises once', async (ctx) => {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    await ctx.mailbox.restart(500);
    const back = now();
    await ctx.mailbox.deliver(alarmMail(number(ctx, 'restart')));
    times.push(await raised(ctx, ctx.sent.get('restart')!.at(-1)!, back));
  }
  figure('imap restart: from the server back to the next alarm (3 restarts)', times.map(seconds).join(', '));
  await tally(ctx, 'restart');
});

s(
  'lying: a new UIDVALIDITY with every message unread again raises nothing again; new mail raises once',
  async (ctx) => {
    // One of them without a Message-ID. And a stranger sends first a mail with the Message-ID the next
    // alarm mail will have: ignored (not an allowed sender), and the alarm mail must still raise.
    await ctx.mailbox.deliver(alarmMail(number(ctx, 'uidvalidity')));
    await ctx.mailbox.deliver(alarmMail(number(ctx, 'uidvalidity'), { messageId: false }));
    const upcoming = '<4711@ils-aachen.example>';
    await ctx.mailbox.deliver(alarmMail('stranger-1', { messageId: upcoming, from: 'spam@elsewhere.example' }));
    await until(
      () => documents(ctx),
      (list) => list.some((d) => d.from === 'spam@elsewhere.example' && d.outcome === 'ignored'),
      "the stranger's mail ignored",
    );
    await ctx.mailbox.deliver(alarmMail(number(ctx, 'uidvalidity'), { messageId: upcoming }));
    await settled(ctx);
    const before = await ctx.mailbox.uidValidity();
    const count = (await ctx.mailbox.messages()).length;
    await ctx.mailbox.renumber({ forgetSeen: true });
    assert.is.not(await ctx.mailbox.uidValidity(), before);
    const unread = await ctx.mailbox.messages();
    assert.equal([unread.length, unread.filter((m) => !m.seen).length, unread[0].uid], [count, count, 1]);
    await ctx.mailbox.deliver(alarmMail(number(ctx, 'uidvalidity')));
    await raised(ctx, ctx.sent.get('uidvalidity')!.at(-1)!);
    // tally: every old message \Seen again, each mail in the documents once.
    await tally(ctx, 'uidvalidity');
  },
);

s('slow and stalled: the watchers give up on a stalled server and reconnect; REST goes on', async (ctx) => {
  const body = {
    organizationID: ctx.orgId,
    name: 'Leitstelle per E-Mail',
    kind: 'imap',
    settings: settings(ctx, ctx.proxy.port),
    profile: PROFILE,
    channels: [],
    active: true,
  };
  const put = await key(ctx).put(`/api/v1/inputs/${ctx.inputId}`, body);
  assert.is(put.status, 200, JSON.stringify(put.body));
  // Both processes' watchers restart on the edit and connect through the proxy.
  await until(
    async () => ({ made: ctx.proxy.made, input: await input(ctx) }),
    ({ made, input }) => made >= 2 && input.lastError === null,
    'both watchers through the proxy',
  );
  await sleep(2 * POLL_MS);

  // Slow: every chunk 1–3 s late (a round trip stays below the answer time, 10 s here). Slower alarms,
  // but each mail still raises once.
  ctx.proxy.slow();
  const slowAt = now();
  await ctx.mailbox.deliver(alarmMail(number(ctx, 'slow')));
  figure('imap slow (each chunk 1-3 s late): mail to alarm', seconds(await raised(ctx, 'slow-1', slowAt)));

  // Stalled: the open connections forward nothing more; new ones pass.
  const madeBeforeStall = ctx.proxy.made;
  const document = await key(ctx).post('/api/v1/inputs', {
    organizationID: ctx.orgId,
    name: 'Faxserver',
    kind: 'document',
    settings: {},
    profile: PROFILE,
    channels: [],
    active: true,
  });
  assert.is(document.status, 201, JSON.stringify(document.body));
  ctx.proxy.stall();
  const stalledAt = now();
  await ctx.mailbox.deliver(alarmMail(number(ctx, 'stalled')));
  // Meanwhile REST answers and another input raises at once.
  const started = now();
  const fax = await fetch(`${ctx.procs[1].url}/api/v1/inputs/${document.body.id}/documents`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', 'API-TOKEN': ctx.apiKey },
    body: 'Einsatznummer: fax-1\nStichwort: THL Person in Notlage\n',
  });
  assert.is(fax.status, 202);
  const faxDocs = (await key(ctx).get(`/api/v1/inputs/${document.body.id}/documents`)).body;
  assert.is(faxDocs[0]?.outcome, 'raised', JSON.stringify(faxDocs));
  figure('imap stalled: another input raised meanwhile in', seconds(now() - started));
  figure('imap stalled (nothing more forwarded): mail to alarm', seconds(await raised(ctx, 'stalled-1', stalledAt)));

  // Trickling: the server's answers a byte a second on the open connections; never quiet, never done.
  // Both processes' watchers gave up on their stalled connections and connected anew.
  await until(
    async () => ctx.proxy.made,
    (made) => made >= madeBeforeStall + 2,
    'the watchers connected anew',
  );
  await sleep(2 * POLL_MS);
  ctx.proxy.trickle();
  const trickleAt = now();
  await ctx.mailbox.deliver(alarmMail(number(ctx, 'trickle')));
  figure('imap trickling (a byte a second): mail to alarm', seconds(await raised(ctx, 'trickle-1', trickleAt)));
  await tally(ctx, 'slow');
  await tally(ctx, 'stalled');
  await tally(ctx, 'trickle');
  assert.is((await input(ctx)).lastError, null);
});

s.run();
