// Hostile documents and mails (RELIABILITY.md "Hostile documents and mails"): what a stranger who
// reaches an input — a forged mail, a compromised fax server — can send through IP4, built here at
// test time: PDFs that inflate to gigabytes, of 10,000 pages, nested 100,000 deep, with JavaScript;
// images that claim 30,000 × 30,000 pixels; MIME bombs, 5 MB of headers, charsets that do not exist
// or lie, a zip bomb attached, a PDF sent as a PNG; and mails whose From shows an allowed sender in
// its display name only. Each must cost one failed or ignored document with a reason, within the
// converters' limits (docs/inputs.md "Documents"), while a plain text alarm sent meanwhile to another
// input still rings and REST answers. The service runs in this process, so its RSS, its event loop
// and its converter children (read from /proc) are measured directly.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import zlib from 'node:zlib';
import * as assert from 'uvu/assert';
import { readMail } from '../../server/areas/inputs/convert-mail.js';
import { allowedSender } from '../../server/areas/inputs/imap.js';
import { client } from '../helpers/http.js';
import { createDocumentInput } from '../helpers/inputs.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from '../helpers/service.js';
import { suite } from '../helpers/suite.js';
import { figure } from './figures.js';

/** The converters' limits the service runs with (server/areas/inputs/convert.ts, its defaults). */
const TOOL_MEMORY = 1024 ** 3;
const MIB = 1024 * 1024;

const PROFILE = {
  fields: {
    event: '^Stichwort:\\s*(.+)$',
    dispatchNumber: '^Einsatznummer:\\s*(\\S+)',
  },
};

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  /** The input the hostile documents go to, and another one for the plain alarms sent meanwhile. */
  hostile: number;
  plain: number;
  /** Plain alarms sent, each must have raised. */
  plainSent: number;
  /** Hostile documents accepted by IP4 (202): each must be one entry of IP6. */
  accepted: string[];
  /** A server the PDF's JavaScript would call, counting what reaches it. */
  bait: Server;
  baitCalls: number;
  children: ChildWatch;
  rssPeak: number;
  rssTimer: NodeJS.Timeout;
  loop: ReturnType<typeof monitorEventLoopDelay>;
  /** The longest the event loop stood still while a hostile document was handled, and which. */
  longestStall: { ms: number; name: string };
  slowestRest: number;
}

/** A tool's limit (INPUT_TOOL_TIMEOUT_MS): the default 30 s in the full run, 10 s in `npm test`'s bounded form. */
const TOOL_MS = Number(process.env.RELIABILITY_REQUESTS || 0) >= 10_000 ? 30_000 : 10_000;

const hostile = suite<Ctx>('reliability: hostile documents and mails', {} as Ctx);

hostile.before(async (ctx) => {
  ctx.svc = await startTestService({ INPUT_TOOL_TIMEOUT_MS: String(TOOL_MS) });
  ctx.org = await createOrg(ctx.svc, 'Hostile documents');
  ctx.hostile = await documentInput(ctx, 'Mailbox of strangers');
  ctx.plain = await documentInput(ctx, 'Fax of the dispatch centre');
  ctx.plainSent = 0;
  ctx.accepted = [];
  ctx.baitCalls = 0;
  ctx.bait = createServer((_req, res) => {
    ctx.baitCalls++;
    res.end();
  });
  await new Promise<void>((resolve) => ctx.bait.listen(0, '127.0.0.1', resolve));
  ctx.children = watchChildren();
  ctx.rssPeak = process.memoryUsage().rss;
  ctx.rssTimer = setInterval(() => (ctx.rssPeak = Math.max(ctx.rssPeak, process.memoryUsage().rss)), 50);
  ctx.loop = monitorEventLoopDelay({ resolution: 10 });
  ctx.loop.enable();
  ctx.slowestRest = 0;
  ctx.longestStall = { ms: 0, name: '' };
});
hostile.after(async (ctx) => {
  clearInterval(ctx.rssTimer);
  ctx.loop?.disable();
  ctx.children?.stop();
  await new Promise((resolve) => ctx.bait?.close(resolve));
  await ctx.svc?.close();
});

async function documentInput(ctx: Ctx, name: string): Promise<number> {
  return createDocumentInput(ctx.svc, ctx.org, { name, profile: PROFILE, channels: [] });
}

/** IP4 (or IP5) with a raw body. */
async function post(ctx: Ctx, inputId: number, body: Buffer, type: string, operation = 'documents') {
  const res = await fetch(`${ctx.svc.url}/api/v1/inputs/${inputId}/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': type, 'API-TOKEN': ctx.org.apiKey },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Entry {
  id: string;
  outcome: string;
  reason: string | null;
  alarmId: number | null;
}
const entries = async (ctx: Ctx, inputId: number) =>
  (await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/inputs/${inputId}/documents`)).body as Entry[];

const alarmsRaised = async (ctx: Ctx) =>
  (await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/alarms?organization_id=${ctx.org.orgId}`)).body
    .total as number;

/** A plain fax to the other input: it must raise its alarm at once, whatever is being read meanwhile. */
async function plainAlarm(ctx: Ctx): Promise<void> {
  const n = ++ctx.plainSent;
  const text = `Stichwort: B3 Wohnungsbrand\nEinsatznummer: HOSTILE-${n}\n`;
  const res = await post(ctx, ctx.plain, Buffer.from(text), 'text/plain');
  assert.is(res.status, 202, JSON.stringify(res.body));
  const entry = (await entries(ctx, ctx.plain)).find((e) => e.id === res.body.documentId);
  assert.is(entry?.outcome, 'raised', `the plain alarm ${n}: ${JSON.stringify(entry)}`);
}

/** REST meanwhile: IP3 of the hostile input answers 200 (its time is a figure, not asserted). */
async function restAnswers(ctx: Ctx): Promise<void> {
  const started = performance.now();
  const res = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/inputs/${ctx.hostile}`);
  ctx.slowestRest = Math.max(ctx.slowestRest, performance.now() - started);
  assert.is(res.status, 200);
}

/**
 * One hostile document through IP4: 202, exactly one new IP6 entry (its own), failed or ignored with a
 * reason that matches `reason`, no alarm (and the last test counts the organization's alarms). Its time is a figure.
 */
async function sendHostile(ctx: Ctx, name: string, body: Buffer, type: string, reason: RegExp): Promise<Entry> {
  // The event loop is watched while the service handles it only: the test built the file before.
  ctx.loop.reset();
  const started = performance.now();
  const res = await post(ctx, ctx.hostile, body, type);
  const took = performance.now() - started;
  const stall = ctx.loop.max / 1e6;
  if (stall > ctx.longestStall.ms) ctx.longestStall = { ms: stall, name };
  assert.is(res.status, 202, `${name}: ${JSON.stringify(res.body)}`);
  ctx.accepted.push(res.body.documentId as string);
  const list = await entries(ctx, ctx.hostile);
  const mine = list.filter((e) => e.id === res.body.documentId);
  assert.is(mine.length, 1, `${name}: one entry in IP6`);
  const [entry] = mine;
  assert.ok(['failed', 'ignored'].includes(entry.outcome), `${name}: ${JSON.stringify(entry)}`);
  assert.is(entry.alarmId, null, name);
  assert.ok(entry.reason && reason.test(entry.reason), `${name}: the reason "${entry.reason}" should match ${reason}`);
  figure(
    `hostile documents: ${name}`,
    `${entry.outcome} after ${seconds(took)} s (event loop stalled ≤ ${stall.toFixed(0)} ms): "${entry.reason}"`,
  );
  return entry;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

// ------------------------------------------------------------------------------------------- the tests

hostile(
  'two PDFs that inflate to 4 GiB each hold both conversions; a plain alarm still rings meanwhile',
  async (ctx) => {
    const bomb = bombPdf(4 * 1024 ** 3);
    let settled = 0;
    const bombs = [1, 2].map(async (i) => {
      try {
        return await sendHostile(
          ctx,
          `PDF bomb ${i} (${(bomb.length / MIB).toFixed(1)} MB inflating to 4 GiB)`,
          bomb,
          'application/pdf',
          new RegExp(`took longer than ${TOOL_MS / 1000} s|could not be read`),
        );
      } finally {
        settled++;
      }
    });
    // Both are being read (two converter children run) before the plain alarm is sent: it must not
    // wait for their limit.
    await ctx.children.until((running) => running.length >= 2 || settled > 0);
    await plainAlarm(ctx);
    await restAnswers(ctx);
    assert.is(settled, 0, 'the plain alarm rang while both bombs were still being read');
    const [one, two] = await Promise.all(bombs);
    // The limit stopped them, and said so: poppler streams the zeros, so time, not memory, is the bound.
    for (const entry of [one, two]) assert.is(entry.outcome, 'failed');
  },
);

hostile(
  'PDFs of 10,000 pages, nested 100,000 deep, a page 200 inches wide, and with JavaScript: read as text, nothing run',
  async (ctx) => {
    await sendHostile(ctx, 'PDF of 10,000 pages', manyPagesPdf(10_000), 'application/pdf', /.+/);
    await plainAlarm(ctx);
    await sendHostile(ctx, 'PDF nested 100,000 deep', nestedPdf(100_000), 'application/pdf', /.+/);
    await plainAlarm(ctx);
    await sendHostile(ctx, 'PDF page of 200 × 200 inches', hugePagePdf(), 'application/pdf', /.+/);
    await plainAlarm(ctx);
    const bait = `http://127.0.0.1:${(ctx.bait.address() as AddressInfo).port}/called`;
    await sendHostile(ctx, 'PDF with /OpenAction JavaScript and /AA', scriptPdf(bait), 'application/pdf', /.+/);
    await plainAlarm(ctx);
    await restAnswers(ctx);
    assert.is(ctx.baitCalls, 0, 'the PDF JavaScript called nobody');
  },
);

hostile(
  'images of 30,000 × 30,000 pixels are refused before OCR, by IP4 and IP5; a PDF sent as a PNG is not read',
  async (ctx) => {
    const pixels = /30000 × 30000 pixels \(900 megapixels\); OCR reads at most 40 megapixels/;
    const png = hugePng(30_000, 30_000);
    const tiff = hugeTiff(30_000, 30_000);
    const tesseractsBefore = ctx.children.seen('tesseract');
    await sendHostile(
      ctx,
      `PNG of 30,000 × 30,000 pixels (${(png.length / MIB).toFixed(1)} MB)`,
      png,
      'image/png',
      pixels,
    );
    await plainAlarm(ctx);
    await sendHostile(ctx, 'TIFF of 30,000 × 30,000 pixels', tiff, 'image/tiff', pixels);
    await plainAlarm(ctx);
    await sendHostile(ctx, 'TIFF of 21 pages', tiffPages(21), 'image/tiff', /more than 20 pages/);
    const loop = Buffer.concat([TIFF_HEAD, tiffDirectory(800, 800, 0, 8)]);
    await sendHostile(ctx, 'TIFF whose pages run in a loop', loop, 'image/tiff', /damaged/);
    await sendHostile(ctx, 'PNG of its signature alone', hugePng(1, 1).subarray(0, 8), 'image/png', /damaged/);
    assert.is(ctx.children.seen('tesseract'), tesseractsBefore, 'no Tesseract started for them');
    // IP5 says the same and notes nothing.
    const before = (await entries(ctx, ctx.hostile)).length;
    const tried = await post(ctx, ctx.hostile, png, 'image/png', 'try');
    assert.is(tried.status, 200);
    assert.match(tried.body.reason as string, pixels);
    assert.is(tried.body.alarm, null);
    assert.is((await entries(ctx, ctx.hostile)).length, before);
    await sendHostile(ctx, 'PDF sent as a PNG', scriptPdf('nothing'), 'image/png', /the file is not a PNG image/);
    await plainAlarm(ctx);
    await restAnswers(ctx);
  },
);

hostile(
  'MIME bombs, 5 MB of headers, unknown and lying charsets, a zip bomb attached: one failed or ignored document each',
  async (ctx) => {
    const parts = /more than 1,000 parts/;
    const headers = /headers .* larger than 1 MiB/;
    // Each mail, then a plain alarm on the other input unless told otherwise.
    const mails: Array<[name: string, body: () => Buffer, reason: RegExp, plainAfter?: false]> = [
      ['mail of multiparts nested 1,000 deep', () => nestedMime(1_000), parts],
      ['mail of 10,000 parts', () => manyParts(10_000), parts],
      ['mail of 990 nested multiparts (under the limit)', () => nestedMime(990, 'Guten Tag'), /.+/],
      ['mail with a base64 part of 14 MiB claiming to be a PDF', () => bigBase64(14 * MIB), /not a PDF/],
      ['mail with 5 MB of headers', () => bigHeaders(5 * MIB), headers],
      ['mail with one folded header of 5 MB', () => oneHugeHeader(5 * MIB), headers],
      ['mail in charset x-klingon', () => charsetMail('x-klingon', Buffer.from('Guten Tag äöü\n')), /.+/, false],
      [
        'mail in a charset that lies (UTF-16 said, ASCII sent)',
        () => charsetMail('utf-16le', Buffer.from('Guten Tag\n')),
        /.+/,
        false,
      ],
      ['mail with a zip bomb attached (1 GiB inside)', zipBombMail, /no text and no PDF or image attached/],
    ];
    for (const [name, body, reason, plainAfter] of mails) {
      await sendHostile(ctx, name, body(), 'message/rfc822', reason);
      if (plainAfter !== false) await plainAlarm(ctx);
    }
    await restAnswers(ctx);
  },
);

hostile('a body over 20 MiB is refused at the door with 413 and the error body, and noted nowhere', async (ctx) => {
  const before = (await entries(ctx, ctx.hostile)).length;
  const res = await post(ctx, ctx.hostile, Buffer.alloc(21 * MIB, 0x41), 'text/plain');
  assert.is(res.status, 413);
  assert.type(res.body.error, 'string');
  assert.type(res.body.message, 'string');
  assert.is((await entries(ctx, ctx.hostile)).length, before);
  await plainAlarm(ctx);
});

hostile('a mail that shows an allowed sender in its display name only is not from an allowed sender', async () => {
  // What the IMAP path decides by (imap.ts allowedSender), on the address the parser reads (readMail).
  const allowed = ['leitstelle@allowed.example'];
  const spoofs = [
    '"leitstelle@allowed.example" <evil@attacker.example>',
    'Leitstelle <evil@attacker.example>',
    'leitstelle@allowed.example <evil@attacker.example>',
    '=?utf-8?q?leitstelle=40allowed=2Eexample?= <evil@attacker.example>',
    '"<leitstelle@allowed.example>" evil@attacker.example',
    'evil@attacker.example, leitstelle@allowed.example',
    'Leitstelle',
  ];
  for (const from of spoofs) {
    const mail = await readMail(fromMail(from));
    assert.not.ok(allowedSender(mail.from, allowed), `${from} read as ${mail.from}`);
    assert.not.ok(allowedSender(mail.from, ['@allowed.example']), `${from} read as ${mail.from}, by domain`);
  }
  // The control: the real sender, with a display name of any kind.
  for (const from of [
    'leitstelle@allowed.example',
    'Evil <leitstelle@allowed.example>',
    'LEITSTELLE@Allowed.Example',
  ]) {
    assert.ok(allowedSender((await readMail(fromMail(from))).from, allowed), from);
  }
  figure(
    'hostile documents: From headers showing an allowed sender in the display name only, let through',
    `0 of ${spoofs.length}`,
  );
});

hostile('afterwards: every hostile document one entry, every plain alarm raised, the limits held', async (ctx) => {
  const list = await entries(ctx, ctx.hostile);
  assert.equal(list.map((e) => e.id).sort(), [...ctx.accepted].sort(), 'IP6 holds exactly the hostile documents');
  assert.ok(list.every((e) => e.outcome === 'failed' || e.outcome === 'ignored'));
  assert.is(await alarmsRaised(ctx), ctx.plainSent, 'every plain alarm raised, nothing else');
  const plain = await entries(ctx, ctx.plain);
  assert.is(plain.filter((e) => e.outcome === 'raised').length, ctx.plainSent);
  // Every converter child ran under its address-space limit (prlimit), whatever it was sent.
  const children = ctx.children.all();
  assert.ok(children.length > 0, 'converter children were seen');
  for (const child of children) {
    assert.is(child.limit, TOOL_MEMORY, `${child.command}: its address-space limit`);
    assert.ok(child.peakVm <= TOOL_MEMORY, `${child.command}: ${child.peakVm} bytes of address space`);
  }
  const peakRss = Math.max(...children.map((c) => c.peakRss));
  figure(
    'hostile documents: documents sent (failed / ignored)',
    `${list.length} (${list.filter((e) => e.outcome === 'failed').length} / ${list.filter((e) => e.outcome === 'ignored').length})`,
  );
  figure(
    'hostile documents: plain alarms sent meanwhile to another input / raised',
    `${ctx.plainSent} / ${plain.filter((e) => e.outcome === 'raised').length}`,
  );
  figure(
    'hostile documents: converter children seen / largest resident memory of one, MiB',
    `${children.length} / ${(peakRss / MIB).toFixed(0)}`,
  );
  figure('hostile documents: service process (with the test) peak RSS, MiB', (ctx.rssPeak / MIB).toFixed(0));
  figure(
    'hostile documents: longest event-loop stall while one was handled, ms',
    `${ctx.longestStall.ms.toFixed(0)} (${ctx.longestStall.name})`,
  );
  figure('hostile documents: slowest REST answer (IP3) meanwhile, ms', ctx.slowestRest.toFixed(0));
});

hostile.run();

// ------------------------------------------------------------------------------------------- /proc

interface Child {
  pid: number;
  command: string;
  /** The soft limit of its address space, in bytes (Infinity: none). */
  limit: number;
  peakVm: number;
  peakRss: number;
}

interface ChildWatch {
  /** Every converter child seen so far. */
  all(): Child[];
  /** How many children running `command` were seen so far. */
  seen(command: string): number;
  /** Waits until the running children's commands satisfy `condition`. */
  until(condition: (running: string[]) => boolean): Promise<void>;
  stop(): void;
}

/** Watches this process's children (the converters: prlimit execs the tool in its own process). */
function watchChildren(): ChildWatch {
  const children = new Map<number, Child>();
  let running: string[] = [];
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const look = () => {
    const pids = read(`/proc/${process.pid}/task/${process.pid}/children`).split(/\s+/).filter(Boolean).map(Number);
    // Libuv spawns from the main thread; other threads' children are looked for too.
    const now: string[] = [];
    for (const pid of pids) {
      const command = read(`/proc/${pid}/cmdline`).split('\0')[0]?.split('/').pop() ?? '';
      if (!/^(pdftotext|pdftoppm|tesseract)$/.test(command)) continue;
      now.push(command);
      const status = read(`/proc/${pid}/status`);
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
      const soft = /^Max address space\s+(\S+)/m.exec(read(`/proc/${pid}/limits`))?.[1];
      if (!status || soft === undefined) continue;
      const known = children.get(pid) ?? { pid, command, limit: 0, peakVm: 0, peakRss: 0 };
      known.limit = soft === 'unlimited' ? Infinity : Number(soft);
      known.peakVm = Math.max(known.peakVm, kb('VmPeak'));
      known.peakRss = Math.max(known.peakRss, kb('VmHWM'));
      children.set(pid, known);
    }
    running = now;
  };
  const timer = setInterval(look, 20);
  return {
    all: () => [...children.values()],
    seen: (command) => [...children.values()].filter((c) => c.command === command).length,
    async until(condition) {
      while (!condition(running)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    stop: () => clearInterval(timer),
  };
}

// ------------------------------------------------------------------------------------------- PDFs

/** A PDF of these objects (object i + 1 is bodies[i], the catalog first), with its cross-reference table. */
function pdfOf(bodies: Array<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0].length;
  const offsets: number[] = [];
  for (const [i, body] of bodies.entries()) {
    offsets.push(at);
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(object);
    at += object.length;
  }
  const xref = `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
const page = (contents: string, extra = '', box = '0 0 595 842') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [${box}] /Contents ${contents} /Resources << /Font << /F1 3 0 R >> >> ${extra}>>`;
const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const ONE_PAGE = '<< /Type /Pages /Kids [4 0 R] /Count 1 >>';
const words = (text: string) => stream('', Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`));

/** The adler-32 of `length` zero bytes (zlib's trailer): its sum of bytes stays 1. */
function adlerOfZeros(length: number): Buffer {
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((length % 65521) << 16) | 1) >>> 0);
  return adler;
}

/**
 * zlib data inflating to `length` zero bytes (a multiple of `unit`), made in milliseconds: one unit
 * deflated with a full flush ends on a byte boundary and refers to nothing before it, so copies of it
 * follow each other as blocks of one stream.
 */
function zeros(length: number, unit: Buffer): Buffer {
  const block = zlib.deflateRawSync(unit, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const count = Math.round(length / unit.length);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array<Buffer>(count).fill(block),
    Buffer.from([0x03, 0x00]), // the final, empty block
    adlerOfZeros(count * unit.length),
  ]);
}

/** One page whose content stream inflates to `length` zero bytes (whitespace to a PDF reader). */
function bombPdf(length: number): Buffer {
  return pdfOf([
    CATALOG,
    ONE_PAGE,
    FONT,
    page('5 0 R'),
    stream('/Filter /FlateDecode', zeros(length, Buffer.alloc(MIB))),
  ]);
}

/** `pages` pages sharing one content stream. */
function manyPagesPdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  return pdfOf([
    CATALOG,
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    FONT,
    words('Seite'),
    ...Array.from({ length: pages }, () => page('4 0 R')),
  ]);
}

/** A page holding an array nested `depth` deep. */
function nestedPdf(depth: number): Buffer {
  return pdfOf([
    CATALOG,
    ONE_PAGE,
    FONT,
    page('5 0 R', `/Deep ${'['.repeat(depth)}${']'.repeat(depth)} `),
    words('Tief'),
  ]);
}

/** A page of 14,400 × 14,400 points (200 inches, poppler's largest) scaled by a UserUnit of 75,000. */
function hugePagePdf(): Buffer {
  return pdfOf([CATALOG, ONE_PAGE, FONT, page('5 0 R', '/UserUnit 75000 ', '0 0 14400 14400'), words('Gross')]);
}

/** JavaScript on opening the document and the page (/OpenAction, /AA, a named script) calling `url`. */
function scriptPdf(url: string): Buffer {
  const js = `app.launchURL\\("${url}"\\); this.submitForm\\("${url}"\\); this.exportDataObject\\({cName: "x", nLaunch: 2}\\);`;
  return pdfOf([
    `<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /AA << /WC 6 0 R >> /Names << /JavaScript << /Names [(run) 6 0 R] >> >> >>`,
    ONE_PAGE,
    FONT,
    page('5 0 R', '/AA << /O 6 0 R >> '),
    words('Hallo'),
    `<< /S /JavaScript /JS (${js}) >>`,
  ]);
}

// ------------------------------------------------------------------------------------------- images

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A black greyscale PNG: its rows (a filter byte and `width` zero pixels) deflated, under a megabyte. */
function hugePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per pixel
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zeros((width + 1) * height, Buffer.alloc((width + 1) * 100))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Little-endian, the first directory at 8. */
const TIFF_HEAD = Buffer.from('II*\0\x08\0\0\0', 'latin1');

/** A TIFF directory of a bilevel page of width × height (one strip at `data`), and the next one's offset. */
function tiffDirectory(width: number, height: number, data: number, next: number): Buffer {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width],
    [257, 4, height],
    [258, 3, 1],
    [259, 3, 1],
    [262, 3, 0],
    [273, 4, data],
    [277, 3, 1],
    [278, 4, height],
    [279, 4, Math.ceil(width / 8) * height],
  ];
  const directory = Buffer.alloc(2 + entries.length * 12 + 4);
  directory.writeUInt16LE(entries.length, 0);
  for (const [i, [tag, type, value]] of entries.entries()) {
    directory.writeUInt16LE(tag, 2 + i * 12);
    directory.writeUInt16LE(type, 4 + i * 12);
    directory.writeUInt32LE(1, 6 + i * 12);
    if (type === 3) directory.writeUInt16LE(value, 10 + i * 12);
    else directory.writeUInt32LE(value, 10 + i * 12);
  }
  directory.writeUInt32LE(next, 2 + entries.length * 12);
  return directory;
}

/** A TIFF that claims a page of width × height and holds 64 KiB of it. */
function hugeTiff(width: number, height: number): Buffer {
  const data = 8 + tiffDirectory(width, height, 0, 0).length;
  return Buffer.concat([TIFF_HEAD, tiffDirectory(width, height, data, 0), Buffer.alloc(64 * 1024)]);
}

/** A TIFF of `pages` small white pages (Tesseract reads every page of a TIFF). */
function tiffPages(pages: number): Buffer {
  const size = tiffDirectory(1, 1, 0, 0).length;
  const strip = 8 + pages * size;
  const directories = Array.from({ length: pages }, (_, i) =>
    tiffDirectory(800, 800, strip, i + 1 < pages ? 8 + (i + 1) * size : 0),
  );
  return Buffer.concat([TIFF_HEAD, ...directories, Buffer.alloc(100 * 800)]);
}

// ------------------------------------------------------------------------------------------- mails

const head = (from = 'leitstelle@allowed.example', extra = '') =>
  `From: ${from}\r\nTo: alarm@station.example\r\nSubject: Nachricht\r\nMIME-Version: 1.0\r\n${extra}`;
const HARMLESS = 'Guten Tag\r\n';

/** Multiparts nested `depth` deep around one text part. */
function nestedMime(depth: number, text = HARMLESS): Buffer {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
    close = `\r\n--b${i}--\r\n${close}`;
  }
  return Buffer.from(`${head()}${open}Content-Type: text/plain\r\n\r\n${text}${close}`);
}

function manyParts(parts: number): Buffer {
  const part = '--p\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\nAAAA\r\n';
  return Buffer.from(`${head()}Content-Type: multipart/mixed; boundary="p"\r\n\r\n${part.repeat(parts)}--p--\r\n`);
}

function attached(type: string, name: string, content: Buffer): Buffer {
  const base64 = content.toString('base64').replace(/.{76}/g, '$&\r\n');
  return Buffer.from(
    `${head()}Content-Type: multipart/mixed; boundary="p"\r\n\r\n--p\r\nContent-Type: ${type}; name="${name}"\r\n` +
      `Content-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64}\r\n--p--\r\n`,
  );
}

const bigBase64 = (bytes: number) => attached('application/pdf', 'fax.pdf', Buffer.alloc(bytes));

function bigHeaders(bytes: number): Buffer {
  const line = `X-Filler: ${'a'.repeat(990)}\r\n`;
  return Buffer.from(
    `${head('leitstelle@allowed.example', line.repeat(Math.ceil(bytes / line.length)))}Content-Type: text/plain\r\n\r\n${HARMLESS}`,
  );
}

function oneHugeHeader(bytes: number): Buffer {
  const folded = `X-Filler: ${Array<string>(Math.ceil(bytes / 80))
    .fill('a'.repeat(78))
    .join('\r\n ')}\r\n`;
  return Buffer.from(`${head('leitstelle@allowed.example', folded)}Content-Type: text/plain\r\n\r\n${HARMLESS}`);
}

const charsetMail = (charset: string, body: Buffer) =>
  Buffer.concat([
    Buffer.from(`${head()}Content-Type: text/plain; charset=${charset}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`),
    body,
  ]);

const fromMail = (from: string) =>
  Buffer.from(`${head(from)}Content-Type: text/plain\r\n\r\nStichwort: B3 Wohnungsbrand\r\n`);

/** A zip whose one entry inflates to 1 GiB of zeros (never inflated: a zip is no document the inputs read). */
function zipBombMail(): Buffer {
  const data = zeros(1024 ** 3, Buffer.alloc(MIB)).subarray(2, -4); // raw deflate, as a zip holds it
  const name = Buffer.from('alarm.txt');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflated
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(1024 ** 3, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(1024 ** 3, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return attached('application/zip', 'alarm.zip', Buffer.concat([local, name, data, central, name, end]));
}
