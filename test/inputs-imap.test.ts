// The e-mail input against a real IMAP server (docs/inputs.md "E-mail"): Debian's Dovecot, started by
// the test (test/helpers/dovecot.ts), watched by two service processes on one database. Wrong credentials
// show in lastError and clear once right; a mail from an allowed sender raises its alarm once, whichever
// process sees it first, and is marked \Seen; another sender's is noted as ignored; the server going
// away and coming back loses nothing. And one incident sent three ways — the e-mail, the PDF and the fax
// (OCR) — raises one alarm and one SMS per member.
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { client, type Reply } from './helpers/http.js';
import { launchChromium } from './helpers/browser.js';
import { startDovecot, type Mailbox } from './helpers/dovecot.js';
import { eventually } from './helpers/fleet.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { suite } from './helpers/suite.js';

interface Ctx {
  mailbox: Mailbox;
  sms: FakeGateway;
  one: TestService;
  two: TestService;
  org: OrgFixture;
  /** The member's mobile as the gateway sees it (+49…). */
  mobile: string;
  inputId: number;
  browser: Browser;
}

const s = suite<Ctx>('the e-mail input against Dovecot, two processes watching', {} as Ctx);
const SENDER = 'alarm@ils-aachen.example';
const PROFILE = {
  fields: {
    event: '^Stichwort:\\s*(.+?)\\s*$',
    dispatchNumber: '^Einsatznummer:\\s*(\\S+)',
    street: '^Stra(?:ß|ss|B)e:\\s*(.+?)\\s*$',
    city: '^Ort:\\s*(.+?)\\s*$',
    message: '^Bemerkung:\\s*(.+?)\\s*$',
  },
};

s.before(async (ctx) => {
  ctx.mailbox = await startDovecot();
  ctx.sms = await startGateway();
  const env = {
    SMS_GATEWAY_URL: ctx.sms.url,
    ALARM_OUTBOX_SWEEP_MS: '200',
    INPUT_IMAP_POLL_MS: '1000',
    INPUT_IMAP_RECONCILE_MS: '300',
    INPUT_IMAP_PORTS: `143,993,${ctx.mailbox.port}`,
  };
  ctx.one = await startTestService(env);
  ctx.two = await startTestService(env);
  ctx.org = await createOrg(ctx.one);
  const gsm = '00491765550101';
  const res = await client(ctx.one.url, { pat: ctx.org.member.token }).post('/api/v1/sms/mobile', {
    gsm,
    ownerID: ctx.org.member.userId,
    active: true,
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  ctx.mobile = `+${gsm.slice(2)}`;
  ctx.browser = await launchChromium();
});
s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.two?.close();
  await ctx.one?.close();
  await ctx.sms?.close();
  await ctx.mailbox?.close();
});

const key = (ctx: Ctx) => client(ctx.one.url, { apiKey: ctx.org.apiKey });
const mail = (from: string, subject: string, body: string) =>
  [
    `From: Leitstelle <${from}>`,
    'To: alarm@ff-aachen.example',
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@ils-aachen.example>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    body,
    '',
  ].join('\r\n');
const fax = (number: string, extra: Record<string, string> = {}) =>
  Object.entries({ Einsatznummer: number, Stichwort: 'B3 Wohnungsbrand', ...extra })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
const documents = async (ctx: Ctx, inputId = ctx.inputId) =>
  (await key(ctx).get(`/api/v1/inputs/${inputId}/documents`)).body as Array<Record<string, any>>;
const imapSettings = (ctx: Ctx, password: string) => ({
  host: '127.0.0.1',
  port: ctx.mailbox.port,
  tls: false,
  user: ctx.mailbox.user,
  password,
  allowedSenders: ['@ils-aachen.example'],
});

s('wrong credentials show in lastError; the right ones clear it', async (ctx) => {
  const made = await key(ctx).post('/api/v1/inputs', {
    organizationID: ctx.org.orgId,
    name: 'Leitstelle per E-Mail',
    kind: 'imap',
    settings: imapSettings(ctx, 'wrong-password'),
    profile: PROFILE,
    channels: ['sms'],
    active: true,
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  ctx.inputId = made.body.id;
  const refused = await eventually(
    async () => (await key(ctx).get(`/api/v1/inputs/${ctx.inputId}`)).body,
    (input) => typeof input.lastError === 'string',
    'the login refused',
  );
  assert.match(refused.lastError, /refused the login of alarms/);
  const put: Reply = await key(ctx).put(`/api/v1/inputs/${ctx.inputId}`, {
    organizationID: ctx.org.orgId,
    name: 'Leitstelle per E-Mail',
    kind: 'imap',
    settings: imapSettings(ctx, ctx.mailbox.password),
    profile: PROFILE,
    channels: ['sms'],
    active: true,
  });
  assert.is(put.status, 200, JSON.stringify(put.body));
  await eventually(
    async () => (await key(ctx).get(`/api/v1/inputs/${ctx.inputId}`)).body,
    (input) => input.lastError === null,
    'lastError cleared once connected',
  );
});

s('a mail from an allowed sender raises once across two processes and is seen; others are ignored', async (ctx) => {
  await ctx.mailbox.deliver(mail(SENDER, 'Alarm', fax('9001-2026', { Straße: 'Goethestraße 5', Ort: 'Aachen' })));
  await ctx.mailbox.deliver(mail('spam@elsewhere.example', 'Angebot', fax('9002-2026')));
  // An allowed address beside a stranger's in From: not the allowed sender's word alone.
  await ctx.mailbox.deliver(mail(`${SENDER}>, Fremd <evil@attacker.example`, 'Alarm', fax('9004-2026')));
  const entries = await eventually(
    () => documents(ctx),
    (list) => list.length >= 3,
    'the three mails noted',
  );
  // All seen: no process has more to do; another look notes nothing more.
  await eventually(
    () => ctx.mailbox.messages(),
    (list) => list.length === 3 && list.every((m) => m.seen),
    'the three mails \\Seen',
  );
  await new Promise((r) => setTimeout(r, 2_500));
  const all = await documents(ctx);
  assert.is(all.length, 3, JSON.stringify(all));
  const two = entries.find((d) => d.from === `${SENDER}, evil@attacker.example`);
  assert.equal([two?.outcome, two?.reason], ['ignored', `the sender ${SENDER}, evil@attacker.example is not allowed`]);
  const raised = entries.find((d) => d.from === SENDER)!;
  const other = entries.find((d) => d.from === 'spam@elsewhere.example')!;
  assert.equal([raised.outcome, raised.type], ['raised', 'message/rfc822']);
  assert.equal([other.outcome, other.reason], ['ignored', 'the sender spam@elsewhere.example is not allowed']);
  const alarm = (await key(ctx).get(`/api/v1/alarms/${raised.alarmId}`)).body;
  assert.equal(
    [alarm.event, alarm.address, alarm.source, alarm.sources.map((x: { kind: string }) => x.kind)],
    ['B3 Wohnungsbrand', 'Goethestraße 5, Aachen', 'input', ['imap']],
  );
});

s('the server away and back: the watchers reconnect and the next mail still raises', async (ctx) => {
  await ctx.mailbox.restart(2_000);
  await ctx.mailbox.deliver(mail(SENDER, 'Alarm', fax('9003-2026')));
  const entry = await eventually(
    async () => (await documents(ctx)).find((d) => d.alarmId && d.text.includes('9003-2026')),
    Boolean,
    'the mail after the restart raised',
  );
  assert.is(entry!.outcome, 'raised');
  await eventually(
    async () => (await key(ctx).get(`/api/v1/inputs/${ctx.inputId}`)).body,
    (input) => input.lastError === null,
    'connected again',
  );
});

s('one incident by mail, PDF and fax (OCR): one alarm, one SMS per member', async (ctx) => {
  const faxInput = await key(ctx).post('/api/v1/inputs', {
    organizationID: ctx.org.orgId,
    name: 'Faxserver',
    kind: 'document',
    settings: {},
    profile: PROFILE,
    channels: ['sms'],
    active: true,
  });
  assert.is(faxInput.status, 201, JSON.stringify(faxInput.body));
  const page = await ctx.browser.newPage({ viewport: { width: 794, height: 1123 }, deviceScaleFactor: 2 });
  const lines = [
    'Einsatznummer: 9100-2026',
    'Stichwort: B3 Wohnungsbrand',
    'Straße: Lindenweg 3',
    'Ort: 52066 Aachen',
    'Bemerkung: Rauch aus Dachstuhl',
  ];
  await page.setContent(
    `<!doctype html><meta charset="utf-8"><body style="margin:0;padding:20mm;background:#fff;color:#000;` +
      `font:14pt/1.6 'DejaVu Sans',sans-serif"><h1 style="font-size:18pt">ALARMFAX Leitstelle Aachen</h1>` +
      lines.map((l) => `<p style="margin:0">${l}</p>`).join('') +
      '</body>',
  );
  const pdf = await page.pdf({ format: 'A4' });
  const png = await page.screenshot({ fullPage: true });
  await page.close();
  const upload = (body: Buffer, type: string) =>
    fetch(`${ctx.two.url}/api/v1/inputs/${faxInput.body.id}/documents`, {
      method: 'POST',
      headers: { 'Content-Type': type, 'API-TOKEN': ctx.org.apiKey },
      body: new Uint8Array(body),
    });
  // The mail first (no address), then the PDF and the fax with the place.
  await ctx.mailbox.deliver(mail(SENDER, 'Alarm', fax('9100-2026')));
  const first = await eventually(
    async () => (await documents(ctx)).find((d) => d.text.includes('9100-2026')),
    Boolean,
    'the mail raised',
  );
  assert.is(first!.outcome, 'raised');
  assert.is((await upload(Buffer.from(pdf), 'application/pdf')).status, 202);
  assert.is((await upload(png, 'image/png')).status, 202);
  const faxes = await documents(ctx, faxInput.body.id);
  assert.equal(
    faxes.map((d) => [d.type, d.outcome, d.alarmId]),
    [
      ['image/png', 'merged', first!.alarmId],
      ['application/pdf', 'merged', first!.alarmId],
    ],
  );
  const alarm = (await key(ctx).get(`/api/v1/alarms/${first!.alarmId}`)).body;
  assert.equal(
    [alarm.address, alarm.message, alarm.sources.map((x: { kind: string }) => x.kind)],
    // Each input once among the sources, however many of its documents merged.
    ['Lindenweg 3, 52066 Aachen', 'Rauch aus Dachstuhl', ['imap', 'document']],
  );
  await eventually(
    async () => ctx.sms.requests.filter((r) => r.body.alarmId === first!.alarmId),
    (list) => list.length >= 1,
    'the SMS of the alarm',
  );
  await new Promise((r) => setTimeout(r, 1_500));
  assert.equal(
    ctx.sms.requests.filter((r) => r.body.to === ctx.mobile && r.body.alarmId === first!.alarmId).length,
    1,
    'one SMS for the member',
  );
});

s.run();
