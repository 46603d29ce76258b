// The journal as a record to hand over (issue 24, docs/api.md "Journal export"): CSV read back by an
// RFC 4180 parser, PDF read back with pdftotext and pdffonts, deleted entries marked, the entries'
// SHA-256 on every page and in the header, and who may export.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import * as assert from 'uvu/assert';
import { entriesAsOf } from '../server/areas/journal/chunks.js';
import { csvCell, entriesDigest } from '../server/areas/journal/export.js';
import { journalModels, type EntryDoc, type JournalModels } from '../server/areas/journal/models.js';
import { INITIAL_STATE } from '../server/areas/journal/state.js';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client, request, type Credential } from './helpers/http.js';
import {
  as,
  BASE,
  eventJournal,
  journalSuite,
  lock,
  newCategory,
  wording,
  writeEntry,
  type JournalCtx,
} from './helpers/journal.js';
import { suite } from './helpers/suite.js';

const run = promisify(execFile);

// ---------------------------------------------------------------- pure parts
const unit = suite('journal export: cells and digest');

unit('a CSV cell quotes what RFC 4180 asks and neutralises formulas', () => {
  assert.is(csvCell('Lage'), 'Lage');
  assert.is(csvCell('a,b'), '"a,b"');
  assert.is(csvCell('er sagte "Feuer"'), '"er sagte ""Feuer"""');
  assert.is(csvCell('Zeile 1\nZeile 2'), '"Zeile 1\nZeile 2"');
  for (const formula of [
    '=1+1',
    '+49 170',
    '-2',
    '@SUM(A1)',
    '\tx',
    '\rx',
    // Spreadsheets trim leading white space before they look for a formula.
    ' =HYPERLINK("https://example.invalid","x")',
    '\u00a0=1+1',
    '\n=1+1',
    '\u200b@SUM(A1)',
    '\uff1d1+1',
  ])
    assert.ok(csvCell(formula).replace(/^"/, '').startsWith("'"), formula);
  // German Excel splits at ";": such a cell is quoted, so the formula after it stays inside it.
  assert.is(csvCell("Lage;=cmd|' /C calc'!A0"), `"Lage;=cmd|' /C calc'!A0"`);
  assert.is(csvCell(12), '12');
});

unit('the digest changes with any entry field and not with anything else', () => {
  const entry = {
    _id: '1:1',
    journalId: 1,
    entryId: 5,
    serial: 1,
    text: 'Lage',
    location: '',
    attachment: '',
    category: null,
    created: { time: '2026-11-22T13:00:00.000Z', by: { userId: 3, apiKeyId: null }, timeCustom: null },
    deleted: null,
  } as never;
  const base = entriesDigest([entry]);
  assert.match(base, /^[0-9a-f]{64}$/);
  assert.is(entriesDigest([entry]), base);
  assert.is.not(entriesDigest([{ ...(entry as object), text: 'Lage!' } as never]), base);
  assert.is.not(
    entriesDigest([
      {
        ...(entry as object),
        deleted: { time: '2026-11-22T13:05:00.000Z', by: { userId: 3, apiKeyId: null } },
      } as never,
    ]),
    base,
  );
});

unit.run();

// ---------------------------------------------------------------- over the wire
const exp = journalSuite('journal export: CSV and PDF');

async function download(
  ctx: JournalCtx,
  journalId: number | string,
  query: string,
  auth: Credential = as.member(ctx.a),
) {
  const headers: Record<string, string> = {};
  if (auth && 'apiKey' in auth) headers['API-TOKEN'] = auth.apiKey;
  if (auth && 'pat' in auth) headers['Personal-Access-Token'] = auth.pat;
  const res = await fetch(`${ctx.svc.url}${BASE}/${journalId}/export?${query}`, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function pdfText(bytes: Buffer, args: string[] = ['-layout']): Promise<{ text: string; fonts: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'journal-export-'));
  try {
    const file = path.join(dir, 'journal.pdf');
    await writeFile(file, bytes);
    const text = (await run('pdftotext', [...args, file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout;
    const fonts = (await run('pdffonts', [file])).stdout;
    return { text, fonts };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A journal of A with `texts` written by the member, the second one deleted by the API key. */
async function journalWith(ctx: JournalCtx, texts: string[]): Promise<{ id: number; entryIds: number[] }> {
  const id = await eventJournal(ctx);
  const category = await newCategory(ctx, ctx.a, 'Lagemeldung');
  await lock(ctx, id, as.member(ctx.a));
  const entryIds: number[] = [];
  for (const text of texts) {
    const res = await writeEntry(ctx, id, as.member(ctx.a), category.id, {
      text,
      location: text.length % 2 ? 'Markt 1' : '',
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    entryIds.push(res.body.id);
  }
  if (entryIds.length > 1)
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).delete(`${BASE}/${id}/entries/${entryIds[1]}`)).status, 200);
  return { id, entryIds };
}

const TEXTS = [
  'Lage: Rauch aus 2. OG, Menschenleben in Gefahr – Zugführer übernimmt',
  'Löschwasser: Hydrant H 112 außer Betrieb, Wasser über Straße',
  '=HYPERLINK("http://evil.example","klick")',
  '+49 170 1234567 Rückruf',
  '-Abschnitt Süd gebildet',
  '@Leitstelle: zweites HLF nachgefordert, "dringend", Größe; ÄÖÜ äöü ß',
  'Zeile eins\nZeile zwei, mit Komma',
  "Lage;=cmd|' /C calc'!A0;",
];

exp(
  'CSV: RFC 4180 with BOM and CRLF; a parser reads back every entry, formulas stay text, the deleted one is marked',
  async (ctx) => {
    const { id, entryIds } = await journalWith(ctx, TEXTS);
    const res = await download(ctx, id, 'format=csv&timeZone=Europe/Berlin&lang=de');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/csv; charset=utf-8/);
    assert.is(res.headers.get('content-disposition'), `attachment; filename="journal-${id}.csv"`);
    assert.match(res.headers.get('journal-entries-sha256')!, /^[0-9a-f]{64}$/);
    assert.equal([...res.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
    const text = res.bytes.toString('utf8').slice(1);
    assert.ok(text.endsWith('\r\n'));
    assert.not.ok(/[^\r]\n/.test(text.replace(/"[^"]*"/g, '')), 'every record ends with CRLF (outside quotes)');
    const rows: string[][] = parse(text, { bom: false, relax_quotes: false, record_delimiter: '\r\n' });
    assert.equal(rows[0], [
      'Nr',
      'Zeit',
      'Ortszeit',
      'angegebene Zeit',
      'Verfasser',
      'Kategorie',
      'Text',
      'Ort',
      'Anhang',
      'gelöscht',
      'Löschzeit',
      'gelöscht von',
    ]);
    const body = rows.slice(1);
    assert.is(body.length, TEXTS.length);
    for (const [i, row] of body.entries()) {
      assert.is(row[0], String(i + 1));
      assert.is(row[6], /^[=+\-@]/.test(TEXTS[i]) ? `'${TEXTS[i]}` : TEXTS[i], `entry ${i + 1}`);
      assert.match(row[1], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      assert.match(row[2], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} (MEZ|MESZ|GMT\+1|GMT\+2|CET|CEST)$/);
      assert.match(row[4], new RegExp(`user ${ctx.a.member.userId}`));
      assert.is(row[5], 'Lagemeldung');
      assert.is(row[9], i === 1 ? 'true' : 'false');
    }
    assert.ok(body[1][10].length > 0 && body[1][11].length > 0, 'who deleted it and when');
    assert.ok(entryIds.length === TEXTS.length);
    // The same entries give the same digest in the other format and in another time zone.
    const pdf = await download(ctx, id, 'format=pdf&timeZone=America/New_York');
    assert.is(pdf.headers.get('journal-entries-sha256'), res.headers.get('journal-entries-sha256'));
  },
);

exp(
  'PDF: header, every entry with umlauts, the deleted one marked, page numbers and the SHA-256 ' +
    'on every page, the font embedded',
  async (ctx) => {
    // Long enough for several pages.
    const many = [
      ...TEXTS,
      ...Array.from(
        { length: 90 },
        (_, i) => `Meldung ${i + 8}: Trupp ${i % 5} an Verteiler, Schlauchleitung über Treppenraum – Druck gut`,
      ),
    ];
    const { id } = await journalWith(ctx, many);
    const res = await download(ctx, id, 'format=pdf&lang=de');
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'application/pdf');
    assert.is(res.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const sha = res.headers.get('journal-entries-sha256')!;
    // EXPORT_SAMPLE_DIR=<dir> keeps the PDF for a look.
    if (process.env.EXPORT_SAMPLE_DIR)
      await writeFile(path.join(process.env.EXPORT_SAMPLE_DIR, 'journal.pdf'), res.bytes);
    const { text, fonts } = await pdfText(res.bytes, []);
    assert.match(fonts, /DejaVuSans\S*\s+(CID )?TrueType\S*\s+\S+\s+yes/, fonts);
    assert.not.ok(/^\S+\s+Type 1\s/m.test(fonts), 'no unembedded standard font');
    assert.ok(text.includes(`Einsatztagebuch #${id}`));
    assert.ok(text.includes(`(ID ${ctx.a.orgId})`));
    assert.match(text, /Status: offen/);
    const compact = text.replace(/\s+/g, ' ');
    for (const [i, entry] of many.entries())
      assert.ok(compact.includes(entry.replace(/\s+/g, ' ')), `entry ${i + 1}: ${entry}`);
    assert.match(compact, /GELÖSCHT von .* am \d{4}-\d{2}-\d{2}/);
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    for (const [i, page] of pages.entries()) {
      assert.ok(page.includes(`Seite ${i + 1} von ${pages.length}`), `page ${i + 1} numbered`);
      assert.ok(page.includes(`SHA-256 ${sha}`), `page ${i + 1} carries the SHA-256`);
    }
    assert.ok(pages[0].includes(`SHA-256: ${sha}`), 'the header names it too');
  },
);

exp("PDF: an event's journal names its alarm (keyword and address) when the service raised it", async (ctx) => {
  const raised = await client(ctx.svc.url, as.key(ctx.a)).post('/api/v1/alarms', {
    organizationID: ctx.a.orgId,
    event: 'B3 Wohnungsbrand',
    address: 'Goethestraße 5, 52064 Aachen',
    monitorIds: [],
    channels: [],
  });
  assert.is(raised.status, 201, JSON.stringify(raised.body));
  const alarmId = raised.body.id;
  const opened = await client(ctx.svc.url, as.key(ctx.a)).get(
    `${BASE}?organization_id=${ctx.a.orgId}&event_id=${alarmId}`,
  );
  const res = await download(ctx, opened.body.id, 'format=pdf&lang=de');
  assert.is(res.status, 200);
  const { text } = await pdfText(res.bytes);
  assert.match(text.replace(/\s+/g, ' '), `Einsatz: B3 Wohnungsbrand, Goethestraße 5, 52064 Aachen (${alarmId})`);
  // Another organization's journal of the same number names nothing of A's alarm.
  const theirs = await client(ctx.svc.url, as.key(ctx.b)).get(
    `${BASE}?organization_id=${ctx.b.orgId}&event_id=${alarmId}`,
  );
  const other = await download(ctx, theirs.body.id, 'format=pdf&lang=de', as.key(ctx.b));
  assert.is(other.status, 200);
  const { text: otherText } = await pdfText(other.bytes);
  assert.match(otherText.replace(/\s+/g, ' '), `Einsatz: ${alarmId}`);
  assert.not.match(otherText, 'Wohnungsbrand');
});

exp('PDF: a 10,000-character word and a text of 1,600 lines export whole', async (ctx) => {
  const { id } = await journalWith(ctx, ['x'.repeat(10_000), 'Zeile\n'.repeat(1_600) + 'Ende']);
  const res = await download(ctx, id, 'format=pdf');
  assert.is(res.status, 200);
  const { text } = await pdfText(res.bytes, []);
  assert.ok((text.match(/x/g) ?? []).length >= 10_000, 'every character of the long word is printed');
  assert.ok(text.includes('Ende'));
});

exp(
  'who may export: 401 without a credential, 400 on bad parameters, 404 for another organization ' +
    'and for a missing journal',
  async (ctx) => {
    const { id } = await journalWith(ctx, ['Lage erkundet']);
    expectError(await request(ctx.svc.url, 'GET', `${BASE}/${id}/export?format=csv`), 401, 'unauthorized');
    const c = client(ctx.svc.url, as.key(ctx.a));
    expectBadRequest(await c.get(`${BASE}/${id}/export`), 'invalid_parameter', wording.exportQuery, 'query', 'format');
    expectBadRequest(
      await c.get(`${BASE}/${id}/export?format=xlsx`),
      'invalid_parameter',
      wording.exportQuery,
      'query',
      'format',
    );
    expectBadRequest(
      await c.get(`${BASE}/${id}/export?format=csv&timeZone=Mars/Base`),
      'invalid_parameter',
      wording.exportQuery,
      'query',
      'timeZone',
    );
    expectBadRequest(
      await c.get(`${BASE}/${id}/export?format=csv&lang=fr`),
      'invalid_parameter',
      wording.exportQuery,
      'query',
      'lang',
    );
    expectBadRequest(
      await c.get(`${BASE}/x/export?format=csv`),
      'invalid_parameter',
      wording.journalId,
      'path',
      'journalID',
    );
    expectBadRequest(
      await c.get(`${BASE}/99999999999999999999/export?format=csv`),
      'invalid_parameter',
      wording.journalId,
      'path',
      'journalID',
    );
    for (const auth of [as.key(ctx.b), as.admin(ctx.b), as.member(ctx.b)]) {
      const res = await client(ctx.svc.url, auth).get(`${BASE}/${id}/export?format=pdf`);
      expectError(res, 404, 'not_found');
      assert.not.ok(JSON.stringify(res.body).includes('Lage erkundet'));
    }
    expectError(await c.get(`${BASE}/987654321/export?format=csv`), 404, 'not_found');
    for (const auth of [as.key(ctx.a), as.admin(ctx.a), as.member(ctx.a)])
      assert.is((await download(ctx, id, 'format=csv', auth)).status, 200);
  },
);

exp.run();

// ---------------------------------------------------------------- the chunks an export reads
const chunked = journalSuite('journal export: chunks of a hundred entries', { RATE_LIMIT_PER_SECOND: '0' });

/** Every entry of a journal read one by one from its own document: what the export must equal. */
async function oneByOne(models: JournalModels, journalId: number, count: number): Promise<EntryDoc[]> {
  const docs = await Promise.all(
    Array.from({ length: count }, (_, k) => models.JournalEntry.findById(`${journalId}:${k + 1}`).lean()),
  );
  assert.ok(docs.every(Boolean), 'every entry has its document');
  return docs as EntryDoc[];
}

chunked(
  'an export reads a hundred entries at a time and equals the entries read one by one, chunks ' +
    'missing or damaged included',
  async (ctx) => {
    const texts = Array.from({ length: 230 }, (_, i) => `Meldung ${i + 1}: Lage unverändert`);
    const { id, entryIds } = await journalWith(ctx, texts); // entry 2 is deleted after its chunk was written
    assert.is(
      (await client(ctx.svc.url, as.member(ctx.a)).delete(`${BASE}/${id}/entries/${entryIds[214]}`)).status,
      200,
    );
    const models = journalModels(ctx.svc.db);

    // Two full chunks, written as their hundredth entry was; the rest is the tail. Two deletes recorded.
    const chunks = await Promise.all([1, 2, 3].map((n) => models.JournalChunk.findById(`${id}:${n}`).lean()));
    assert.equal(
      chunks.map((c) => c?.entries.map((e) => e.serial).join(',')),
      [
        Array.from({ length: 100 }, (_, k) => k + 1).join(','),
        Array.from({ length: 100 }, (_, k) => k + 101).join(','),
        undefined,
      ],
    );
    assert.equal((await models.JournalDeletion.findById(`${id}:1`).lean())?.serial, 2);
    assert.equal((await models.JournalDeletion.findById(`${id}:2`).lean())?.serial, 215);

    const expected = entriesDigest(await oneByOne(models, id, texts.length));
    const reads: Record<string, number> = {};
    ctx.svc.db.conn.set('debug', (collection: string) => {
      reads[collection] = (reads[collection] ?? 0) + 1;
    });
    let res;
    try {
      res = await download(ctx, id, 'format=csv&lang=en');
    } finally {
      ctx.svc.db.conn.set('debug', false);
    }
    assert.is(res.status, 200);
    assert.is(res.headers.get('journal-entries-sha256'), expected);
    assert.is(reads.journal_chunks, 2, JSON.stringify(reads));
    assert.is(reads.journal_entry_ids, 2, `each chunk checked by its last entry: ${JSON.stringify(reads)}`);
    assert.is(reads.journal_entries, 30, `only the tail is read entry by entry: ${JSON.stringify(reads)}`);
    const rows: string[][] = parse(res.bytes.toString('utf8').slice(1), { record_delimiter: '\r\n' });
    assert.equal(
      rows.slice(1).flatMap((row) => (row[9] === 'true' ? [Number(row[0])] : [])),
      [2, 215],
    );

    // A missing chunk (a restore leaves them out) is read entry by entry and written again.
    await models.JournalChunk.deleteOne({ _id: `${id}:1` });
    assert.is((await download(ctx, id, 'format=csv')).headers.get('journal-entries-sha256'), expected);
    assert.is((await models.JournalChunk.findById(`${id}:1`).lean())?.entries.length, 100);
    // A damaged one is not trusted, and is written again.
    await models.JournalChunk.updateOne({ _id: `${id}:2` }, { $set: { entries: chunks[0]!.entries.slice(0, 50) } });
    assert.is((await download(ctx, id, 'format=pdf')).headers.get('journal-entries-sha256'), expected);
    assert.is((await models.JournalChunk.findById(`${id}:2`).lean())?.entries.at(-1)?.serial, 200);
    // A chunk of another history (a restore under running processes): serials that fit, other entries.
    const foreign = chunks[1]!.entries.map((e, i) => ({ ...e, serial: i + 1, text: `anders ${i}` }));
    await models.JournalChunk.updateOne({ _id: `${id}:1` }, { $set: { entries: foreign } });
    assert.is((await download(ctx, id, 'format=csv')).headers.get('journal-entries-sha256'), expected);
    assert.is((await models.JournalChunk.findById(`${id}:1`).lean())?.entries[0].text, texts[0]);
    // A delete record of another history at the next ordinal is replaced by the next real delete.
    await models.JournalDeletion.create({
      _id: `${id}:3`,
      journalId: id,
      serial: 5,
      time: '2026-01-01T00:00:00.000Z',
      by: { userId: 1, apiKeyId: null },
    });
    assert.is((await client(ctx.svc.url, as.member(ctx.a)).delete(`${BASE}/${id}/entries/${entryIds[6]}`)).status, 200);
    const withSeventh = entriesDigest(await oneByOne(models, id, texts.length));
    const after = await download(ctx, id, 'format=csv');
    assert.is(after.headers.get('journal-entries-sha256'), withSeventh);
    const marked: string[][] = parse(after.bytes.toString('utf8').slice(1), { record_delimiter: '\r\n' });
    assert.equal(
      marked.slice(1).flatMap((row) => (row[9] === 'true' ? [Number(row[0])] : [])),
      [2, 7, 215],
    );
    // A missing delete record: the entries' own marks are read instead.
    await models.JournalDeletion.deleteOne({ _id: `${id}:2` });
    assert.is((await download(ctx, id, 'format=csv')).headers.get('journal-entries-sha256'), withSeventh);
    // A journal begun before deletes were counted is read entry by entry.
    const { deletes: _, ...uncounted } = { ...INITIAL_STATE, entries: texts.length };
    assert.is(entriesDigest(await entriesAsOf(models, id, uncounted)), withSeventh);
  },
);

chunked(
  "PDF: while one of an organization's exports is being made on the process, another of it is a 429 " +
    "with Retry-After; another organization's is made meanwhile; once done, the next is made",
  async (ctx) => {
    const words = 'Trupp an Verteiler, Schlauchleitung über Treppenraum, Druck gut. ';
    const long = words.repeat(160).slice(0, 10_000);
    const { id } = await journalWith(
      ctx,
      Array.from({ length: 60 }, () => long),
    );
    const other = await eventJournal(ctx, ctx.b);
    const [first, second, theirs] = await Promise.all([
      download(ctx, id, 'format=pdf'),
      download(ctx, id, 'format=pdf'),
      download(ctx, other, 'format=pdf', as.key(ctx.b)),
    ]);
    const statuses = [first.status, second.status].sort();
    assert.equal(statuses, [200, 429], `one at a time per organization: ${statuses}`);
    const refused = [first, second].find((r) => r.status === 429)!;
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
    assert.is(JSON.parse(refused.bytes.toString()).error, 'rate_limited');
    assert.is(theirs.status, 200, "another organization's export is not held back");
    assert.is((await download(ctx, id, 'format=pdf')).status, 200, 'the next one, once the first is done');
    // A CSV is cheap and never waits.
    assert.is((await download(ctx, id, 'format=csv')).status, 200);
  },
);

chunked.run();
