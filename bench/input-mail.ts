// From the dispatch centre to the wall (docs/inputs.md): a real IMAP server (Dovecot, as the e-mail
// input's tests start it) watched by the service; each mail is timed from just before it is put into the
// mailbox until a screen subscribed to the organization's monitor has the alarm. Then a one-page fax
// (a PNG drawn by Chromium, read by Tesseract) sent by IP4, timed the same way; then pager telegrams
// (IN3, POCSAG codes of a pager input) and SMS with a PIN (IN1), from the request to the screen.
// Usage: npx tsx bench/input-mail.ts [mails=20] [faxes=5] [telegrams=10]
import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { launchChromium } from '../test/helpers/browser.js';
import { startDovecot } from '../test/helpers/dovecot.js';
import { benchService } from './setup.js';

const [mails, faxes, telegrams] = [2, 3, 4].map((i, k) => Number(process.argv[i] ?? [20, 5, 10][k]));
const GATEWAY_TOKEN = 'bench-gateway';
const mailbox = await startDovecot();
const bench = await benchService({ INPUT_IMAP_PORTS: String(mailbox.port), INBOUND_GATEWAY_TOKEN: GATEWAY_TOKEN });
const api = (path: string, body: unknown) =>
  fetch(`${bench.url}${path}`, {
    method: 'POST',
    headers: { 'API-TOKEN': bench.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => {
    const reply = (await res.json()) as { id: number };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(reply)}`);
    return reply;
  });

const profile = { fields: { event: '^Stichwort:\\s*(.+?)\\s*$', dispatchNumber: '^Einsatznummer:\\s*(\\S+)' } };
const monitor = (await (
  await fetch(`${bench.url}/api/v1/monitor/${bench.monitorId}`, { headers: { 'API-TOKEN': bench.token } })
).json()) as { organizationID: number };
const org = monitor.organizationID;
await api('/api/v1/inputs', {
  organizationID: org,
  name: 'Leitstelle',
  kind: 'imap',
  settings: {
    host: '127.0.0.1',
    port: mailbox.port,
    tls: false,
    user: mailbox.user,
    password: mailbox.password,
    allowedSenders: ['@ils.example'],
  },
  profile,
  channels: ['app'],
  active: true,
});
const faxInput = await api('/api/v1/inputs', {
  organizationID: org,
  name: 'Fax',
  kind: 'document',
  settings: {},
  profile,
  channels: ['app'],
  active: true,
});

// A screen on the monitor: when did it get each keyword?
const seen = new Map<string, number>();
const socket = io(bench.url, { auth: { token: bench.token, scheme: 'api-token' }, transports: ['websocket'] });
await new Promise<void>((resolve, reject) => {
  socket.once('connect', () => resolve());
  socket.once('connect_error', reject);
});
const note = (payload: unknown) => {
  const text = JSON.stringify(payload);
  for (const m of text.matchAll(/Probe (\d+)/g)) if (!seen.has(m[1])) seen.set(m[1], performance.now());
};
socket.on('monitor:patch', note);
socket.on('monitor:snapshot', note);
await socket.emitWithAck('monitor:subscribe', { monitorId: bench.monitorId });

async function shown(n: number, started: number): Promise<number> {
  const until = Date.now() + 60_000;
  while (!seen.has(String(n))) {
    if (Date.now() > until) throw new Error(`alarm ${n} never reached the screen`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return seen.get(String(n))! - started;
}

// A warm-up mail, not counted: the watcher starts within INPUT_IMAP_RECONCILE_MS of the input's creation.
const mailTimes: number[] = [];
for (let n = 0; n <= mails; n++) {
  const started = performance.now();
  await mailbox.deliver(
    [
      'From: ILS <alarm@ils.example>',
      'To: wache@ff.example',
      'Subject: Alarm',
      `Date: ${new Date().toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Einsatznummer: M-${n}-${Date.now()}`,
      `Stichwort: Probe ${n}`,
      '',
    ].join('\r\n'),
  );
  const took = await shown(n, started);
  if (n > 0) mailTimes.push(took);
}

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 794, height: 1123 }, deviceScaleFactor: 2 });
const faxTimes: number[] = [];
for (let i = 1; i <= faxes; i++) {
  const n = 1000 + i;
  await page.setContent(
    `<!doctype html><meta charset="utf-8"><body style="margin:0;padding:20mm;background:#fff;color:#000;` +
      `font:14pt/1.6 'DejaVu Sans',sans-serif"><h1>ALARMFAX Leitstelle</h1><p>Einsatznummer: F-${n}-${Date.now()}</p>` +
      `<p>Stichwort: Probe ${n}</p><p>Straße: Goethestraße 5</p><p>Ort: 52064 Aachen</p></body>`,
  );
  const png = await page.screenshot({ fullPage: true });
  const started = performance.now();
  const res = await fetch(`${bench.url}/api/v1/inputs/${faxInput.id}/documents`, {
    method: 'POST',
    headers: { 'API-TOKEN': bench.token, 'Content-Type': 'image/png' },
    body: new Uint8Array(png),
  });
  if (res.status !== 202) throw new Error(`IP4 answered ${res.status}`);
  faxTimes.push(await shown(n, started));
}
await browser.close();

// Each telegram a code of its own (one code, one incident while its alarm runs).
const codes = Array.from({ length: telegrams }, (_, i) => ({ ric: String(1_200_000 + i), event: `Probe ${2000 + i}` }));
await api('/api/v1/inputs', {
  organizationID: org,
  name: 'Funkmeldeempfänger',
  kind: 'pager',
  settings: { codes, vehicles: [] },
  channels: ['app'],
  active: true,
});
const inbound = async (path: string, body: unknown) => {
  const res = await fetch(`${bench.url}${path}`, {
    method: 'POST',
    headers: { 'Gateway-Token': GATEWAY_TOKEN, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`${path} answered ${res.status}`);
};
const pagerTimes: number[] = [];
for (const [i, code] of codes.entries()) {
  const started = performance.now();
  await inbound('/api/v1/inbound/pager', { type: 'pocsag', ric: code.ric, subric: 'a', message: 'Alarm' });
  pagerTimes.push(await shown(2000 + i, started));
}
// A sender of its own per SMS: the number in "Probe 3000" could be a PIN, and a sender's wrong PINs are limited.
const smsTimes: number[] = [];
for (let i = 0; i < telegrams; i++) {
  const gsm = `0049176123${String(45_000 + i)}`;
  await api('/api/v1/sms/alarming', { gsm, organizationID: org, pin: '4711' });
  const started = performance.now();
  await inbound('/api/v1/inbound/sms', { from: `+${gsm.slice(2)}`, text: `4711 Probe ${3000 + i}` });
  smsTimes.push(await shown(3000 + i, started));
}

const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, worst ${sorted[sorted.length - 1].toFixed(0)} ms (${xs.length}: ${xs.map((x) => x.toFixed(0)).join(', ')})`;
};
console.log(`mail put into the mailbox → alarm on the screen: ${stats(mailTimes)}`);
console.log(`one-page fax PNG sent (IP4, OCR) → alarm on the screen: ${stats(faxTimes)}`);
console.log(`pager telegram (IN3) → alarm on the screen: ${stats(pagerTimes)}`);
console.log(`SMS with the PIN (IN1) → alarm on the screen: ${stats(smsTimes)}`);
socket.close();
await bench.close();
await mailbox.close();
process.exit(0);
