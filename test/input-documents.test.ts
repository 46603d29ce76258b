// The inputs' documents as text (docs/inputs.md "Documents"), with the real tools: a Leitstelle's
// alarm fax drawn in Chromium and read back as a PNG and a TIFF by Tesseract, as a PDF with a text
// layer by pdftotext, as a scanned PDF by pdftoppm and Tesseract, and inside e-mails built by hand
// (ISO-8859-1 quoted-printable, a PDF attachment, mails nested too deep); and what a station admin is
// told when a document cannot be read: broken, empty, not an image, too slow, no Tesseract.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { ConversionError, documentText, mailText, type DocumentText } from '../server/areas/inputs/convert.js';
import { launchChromium } from './helpers/browser.js';
import { suite } from './helpers/suite.js';

/** The fax's lines, as the tools must give them back. */
const FAX_LINES = [
  'ALARMFAX Leitstelle Aachen',
  'Einsatznummer: 4711-2026',
  'Stichwort: B3 Wohnungsbrand',
  'Straße: Goethestraße 5',
  'Ort: 52064 Aachen',
  'Koordinaten: 50.7766, 6.0834',
  'Einsatzmittel: HLF 20, DLK 23',
  'Bemerkung: Rauch aus Fenster 2. OG',
];

// A4 in CSS pixels, and the scale that makes it 1700 px wide (205 dpi: a fax's "fine" resolution).
const A4 = { width: 794, height: 1123 };
const SCALE = 1700 / A4.width;

const FAX_HTML = `<!doctype html><meta charset="utf-8"><style>
  @page { size: A4; margin: 0 }
  html, body { margin: 0; background: #fff; color: #000 }
  body { padding: 12mm 20mm; font: 13pt/1.6 "DejaVu Sans", Arial, sans-serif }
  .header { display: flex; justify-content: space-between; font-size: 9pt; margin-bottom: 14mm }
  h1 { font-size: 18pt; margin: 0 0 8mm; padding: 2mm 3mm; border: 1.5pt solid #000 }
  p { margin: 0 }
</style>
<div class="header"><span>17.03.2026 14:02</span><span>Fax +49 241 4711-0</span></div>
<h1>${FAX_LINES[0]}</h1>
${FAX_LINES.slice(1)
  .map((line) => `<p>${line}</p>`)
  .join('\n')}`;

interface Ctx {
  browser: Browser;
  png: Buffer;
  tiff: Buffer;
  pdf: Buffer;
  scannedPdf: Buffer;
  /** A white page. */
  blankPng: Buffer;
  tempDirsBefore: string[];
}

const tempDirs = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('alarm-hub-document-'));

/** An uncompressed bilevel TIFF (WhiteIsZero, as fax TIFFs are) of packed rows, 1 bit = black. */
function bilevelTiff(width: number, height: number, rows: Buffer, dpi: number): Buffer {
  const SHORT = 3;
  const LONG = 4;
  const RATIONAL = 5;
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, LONG, width],
    [257, LONG, height],
    [258, SHORT, 1], // bits per sample
    [259, SHORT, 1], // no compression
    [262, SHORT, 0], // WhiteIsZero
    [273, LONG, 0], // strip offset: set below
    [277, SHORT, 1], // samples per pixel
    [278, LONG, height], // rows per strip
    [279, LONG, rows.length],
    [282, RATIONAL, 0], // x resolution: set below
    [283, RATIONAL, 0],
    [296, SHORT, 2], // inch
  ];
  const ifdSize = 2 + entries.length * 12 + 4;
  const rationals = 8 + ifdSize;
  const data = rationals + 16;
  const head = Buffer.alloc(data);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(8, 4);
  head.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    head.writeUInt16LE(tag, at);
    head.writeUInt16LE(type, at + 2);
    head.writeUInt32LE(1, at + 4);
    if (tag === 273) value = data;
    if (tag === 282) value = rationals;
    if (tag === 283) value = rationals + 8;
    if (type === SHORT) head.writeUInt16LE(value, at + 8);
    else head.writeUInt32LE(value, at + 8);
  });
  for (const at of [rationals, rationals + 8]) {
    head.writeUInt32LE(dpi, at);
    head.writeUInt32LE(1, at + 4);
  }
  return Buffer.concat([head, rows]);
}

/** An RFC 822 message with CRLF line ends. */
const mail = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'latin1');

/** A mail that holds only `inner` as an attached message. */
const forwarding = (inner: Buffer, boundary: string) =>
  Buffer.concat([
    mail([
      'From: Wache <wache@feuerwehr.example>',
      'Subject: Fwd: Alarm',
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: message/rfc822',
      'Content-Disposition: attachment; filename="alarm.eml"',
      '',
      '',
    ]),
    inner,
    mail(['', `--${boundary}--`, '']),
  ]);

async function rejected(promise: Promise<unknown>, reason: RegExp): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.instance(err, ConversionError);
    const message = (err as Error).message;
    assert.match(message, reason);
    return message;
  }
  assert.unreachable(`expected a ConversionError matching ${reason}`);
  return '';
}

function hasFaxLines(read: DocumentText): void {
  const lines = read.text.split('\n').map((line) => line.trim());
  for (const line of FAX_LINES) assert.ok(lines.includes(line), `missing ${JSON.stringify(line)} in:\n${read.text}`);
}

const documents = suite<Ctx>('input documents: faxes, PDFs and mails as text, with the real tools', {} as Ctx);

documents.before(async (ctx) => {
  ctx.tempDirsBefore = await tempDirs();
  ctx.browser = await launchChromium();
  const context = await ctx.browser.newContext({ viewport: A4, deviceScaleFactor: SCALE });
  const page = await context.newPage();
  await page.setContent(FAX_HTML);
  ctx.png = await page.screenshot({ type: 'png', fullPage: false });
  ctx.pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  // The fax as a fax machine's TIFF: the screenshot's pixels, black where darker than mid-grey.
  const packed = await page.evaluate(
    async (dataUrl) => {
      const image = new Image();
      image.src = dataUrl;
      await image.decode();
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [image.width, image.height];
      const context2d = canvas.getContext('2d')!;
      context2d.drawImage(image, 0, 0);
      const { data } = context2d.getImageData(0, 0, image.width, image.height);
      const rowBytes = Math.ceil(image.width / 8);
      const bits = new Uint8Array(rowBytes * image.height);
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++)
          if (data[(y * image.width + x) * 4] < 128) bits[y * rowBytes + (x >> 3)] |= 0x80 >> (x & 7);
      let binary = '';
      for (let i = 0; i < bits.length; i += 0x8000) binary += String.fromCharCode(...bits.subarray(i, i + 0x8000));
      return { width: image.width, height: image.height, base64: btoa(binary) };
    },
    `data:image/png;base64,${ctx.png.toString('base64')}`,
  );
  ctx.tiff = bilevelTiff(packed.width, packed.height, Buffer.from(packed.base64, 'base64'), 205);
  // A scan: a PDF whose only content is the fax's picture.
  await page.setContent(
    `<!doctype html><style>@page { size: A4; margin: 0 } body { margin: 0 } img { display: block; width: 210mm; height: 297mm }</style>` +
      `<img src="data:image/png;base64,${ctx.png.toString('base64')}">`,
  );
  ctx.scannedPdf = await page.pdf({ preferCSSPageSize: true });
  await page.setContent('<!doctype html><body style="background: #fff">');
  ctx.blankPng = await page.screenshot({ type: 'png' });
  await context.close();
});

documents.after(async (ctx) => {
  await ctx.browser?.close();
});

documents('a fax as a PNG is read by OCR in German, umlauts and all', async (ctx) => {
  assert.is(ctx.png.readUInt32BE(16), 1700, 'the fax is 1700 px wide');
  const read = await documentText(ctx.png, 'image/png');
  assert.is(read.via, 'ocr');
  hasFaxLines(read);
});

documents('the same fax as a bilevel TIFF, as fax machines store it', async (ctx) => {
  const read = await documentText(ctx.tiff, 'image/tiff');
  assert.is(read.via, 'ocr');
  hasFaxLines(read);
});

documents("a PDF's text layer is read with pdftotext", async (ctx) => {
  const read = await documentText(ctx.pdf, 'application/pdf');
  assert.is(read.via, 'pdf-text');
  hasFaxLines(read);
  assert.ok(read.text.includes('17.03.2026 14:02'));
});

documents('a scanned PDF (no text layer) is rendered and read by OCR', async (ctx) => {
  const read = await documentText(ctx.scannedPdf, 'application/pdf');
  assert.is(read.via, 'ocr');
  hasFaxLines(read);
});

documents('plain text: UTF-8, else Latin-1/Windows-1252; CRLF, NUL, blanks around and length handled', async () => {
  const utf8 = await documentText(
    Buffer.from('\uFEFF Stichwort: B3 Wohnungsbrand\r\nStraße: Goethestraße 5\r\n\n'),
    'text/plain',
  );
  assert.equal(utf8, { text: 'Stichwort: B3 Wohnungsbrand\nStraße: Goethestraße 5', via: 'text' });
  const latin1 = Buffer.concat([
    Buffer.from('Straße: Goethestraße 5\r\nÖlspur, Brücke über die Wurm\0\r\nKosten: 5 ', 'latin1'),
    Buffer.from([0x80]), // € in Windows-1252
  ]);
  assert.is(
    (await documentText(latin1, 'text/plain')).text,
    'Straße: Goethestraße 5\nÖlspur, Brücke über die Wurm\nKosten: 5 €',
  );
  assert.is((await documentText(Buffer.from('x'.repeat(250_000)), 'text/plain')).text.length, 100_000);
});

documents('an e-mail: sender, subject and its ISO-8859-1 quoted-printable text part', async (ctx) => {
  const source = mail([
    'From: "Leitstelle Aachen" <alarm@leitstelle-aachen.example>',
    'To: feuerwehr@example.org',
    'Subject: =?ISO-8859-1?Q?Alarm_B3_Wohnungsbrand_Goethestra=DFe_5?=',
    'Date: Tue, 17 Mar 2026 14:02:00 +0100',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=ISO-8859-1',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Einsatznummer: 4711-2026',
    'Stichwort: B3 Wohnungsbrand',
    'Stra=DFe: Goethestra=DFe 5',
    'Bemerkung: Rauch aus Fenster 2. OG, Bewohner =FCber Balkon, =C4ltere Dame =',
    'im Geb=E4ude',
    '--b1',
    'Content-Type: application/pdf; name="alarm.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    ctx.pdf.toString('base64').replace(/.{76}/g, '$&\r\n'),
    '--b1--',
    '',
  ]);
  const read = await mailText(source);
  assert.is(read.from, 'alarm@leitstelle-aachen.example');
  assert.is(read.subject, 'Alarm B3 Wohnungsbrand Goethestraße 5');
  assert.is(read.via, 'mail');
  assert.is(
    read.text,
    'Einsatznummer: 4711-2026\nStichwort: B3 Wohnungsbrand\nStraße: Goethestraße 5\n' +
      'Bemerkung: Rauch aus Fenster 2. OG, Bewohner über Balkon, Ältere Dame im Gebäude',
  );
  // The same as a document of type message/rfc822.
  assert.equal(await documentText(source, 'message/rfc822'), read);
});

documents(
  'an e-mail with no text but the fax attached as a PDF (labelled octet-stream) gives the PDF text',
  async (ctx) => {
    const source = mail([
      'From: Faxserver <fax@leitstelle-aachen.example>',
      'Subject: Fax von 0241 4711-0',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b2"',
      '',
      '--b2',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      '   ',
      '--b2',
      'Content-Type: application/octet-stream; name="fax.pdf"',
      'Content-Disposition: attachment; filename="fax.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      ctx.pdf.toString('base64').replace(/.{76}/g, '$&\r\n'),
      '--b2--',
      '',
    ]);
    const read = await mailText(source);
    assert.is(read.from, 'fax@leitstelle-aachen.example');
    assert.is(read.subject, 'Fax von 0241 4711-0');
    assert.is(read.via, 'pdf-text');
    hasFaxLines(read);
  },
);

documents('a forwarded mail is read; a mail in a mail in a mail is not', async () => {
  const alarm = mail([
    'From: alarm@leitstelle-aachen.example',
    'Subject: Alarm',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Stichwort: B3 Wohnungsbrand',
  ]);
  const forwarded = await mailText(forwarding(alarm, 'f1'));
  assert.equal(forwarded, {
    text: 'Stichwort: B3 Wohnungsbrand',
    via: 'mail',
    from: 'wache@feuerwehr.example',
    subject: 'Fwd: Alarm',
  });
  await rejected(mailText(forwarding(forwarding(alarm, 'f1'), 'f2')), /nested too deep/);
  await rejected(documentText(forwarding(forwarding(alarm, 'f1'), 'f2'), 'message/rfc822'), /nested too deep/);
  await rejected(
    mailText(mail(['From: a@example.org', 'Subject: leer', 'Content-Type: text/plain', '', ''])),
    /^the e-mail has no text and no PDF or image attached$/,
  );
});

documents('what a station admin is told about documents that give no text', async (ctx) => {
  const broken = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('garbage '.repeat(300))]);
  const said = await rejected(documentText(broken, 'application/pdf'), /^the PDF could not be read \(pdftotext: .+\)$/);
  assert.ok(!said.includes('\n'), said);
  await rejected(documentText(Buffer.alloc(0), 'application/pdf'), /^the document is empty$/);
  await rejected(mailText(Buffer.alloc(0)), /^the document is empty$/);
  await rejected(documentText(Buffer.from('not a pdf'), 'application/pdf'), /^the file is not a PDF$/);
  // Random bytes: never handed to Tesseract, which would read them as a list of file names.
  await rejected(
    documentText(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)), 'image/png'),
    /^the file is not a PNG image$/,
  );
  // Its real header (so its size is known and small), then garbage.
  const truncated = Buffer.concat([ctx.png.subarray(0, 33), Buffer.from('\x00\x00\x00\x0dIDATgarbage'.repeat(20))]);
  await rejected(documentText(truncated, 'image/png'), /^the image could not be read \(tesseract: .+\)$/);
  await rejected(documentText(ctx.png, 'image/png', { timeoutMs: 1 }), /^OCR took longer than 1 ms$/);
  await rejected(documentText(ctx.scannedPdf, 'application/pdf', { timeoutMs: 1 }), /took longer than 1 ms$/);
  // Tesseract gets too little memory to load its German model.
  await rejected(documentText(ctx.png, 'image/png', { memoryBytes: 32 * 1024 ** 2 }), /tesseract/);
  await rejected(
    documentText(ctx.png, 'image/png', { tesseract: '/nonexistent/tesseract' }),
    /^OCR needs Tesseract with German data: install tesseract-ocr and tesseract-ocr-deu$/,
  );
  await rejected(
    documentText(ctx.pdf, 'application/pdf', { pdftotext: '/nonexistent/pdftotext' }),
    /^pdftotext is missing: install poppler-utils$/,
  );
  await rejected(documentText(ctx.blankPng, 'image/png'), /^the document has no text \(an empty page\?\)$/);
});

documents("a document's tools together stop at its deadline, each within its own limit", async (ctx) => {
  // A Tesseract that takes 3 s a page, within its own limit of 5 s: the scan's tools together would
  // take more than the document's 2 s (docs/inputs.md "Documents", Limits).
  const dir = await mkdtemp(path.join(os.tmpdir(), 'slow-tesseract-'));
  const slow = path.join(dir, 'tesseract');
  await writeFile(slow, '#!/bin/sh\n[ "$1" = --list-langs ] && { echo deu; exit 0; }\nexec sleep 3\n', { mode: 0o755 });
  try {
    const options = { tesseract: slow, timeoutMs: 5_000, documentMs: 2_000 };
    await rejected(
      documentText(ctx.scannedPdf, 'application/pdf', options),
      /^reading the document took longer than 2 s altogether$/,
    );
    await rejected(
      documentText(ctx.png, 'image/png', options),
      /^reading the document took longer than 2 s altogether$/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

documents('no temporary directory is left behind', async (ctx) => {
  const left = (await tempDirs()).filter((name) => !ctx.tempDirsBefore.includes(name));
  assert.equal(left, []);
});

documents.run();
