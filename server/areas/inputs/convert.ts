// What a dispatch centre sends, as text for the input's profile (docs/inputs.md "Documents"): plain
// text (UTF-8, else Latin-1/Windows-1252 as old fax servers and mail gateways write it), a PDF's text
// layer (poppler's pdftotext), a scanned PDF or a fax image read by OCR in German (pdftoppm and
// Tesseract), an e-mail (convert-mail.ts). The tools run as child processes, never through a shell,
// each under a time limit (SIGKILL), an address-space limit (prlimit) and an output cap, a document's
// tools together under a deadline, images under a pixel limit, and at most a few at once: a hostile or broken document costs one failed document with a reason the station admin
// can act on (IP6), never the service.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readMail, sniffedType, type MailParts } from './convert-mail.js';

export const DOCUMENT_TYPES = ['text/plain', 'application/pdf', 'image/png', 'image/tiff', 'message/rfc822'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DocumentText {
  text: string;
  via: 'text' | 'pdf-text' | 'ocr' | 'mail';
  from?: string;
  subject?: string;
}

/** Why a document gave no text: said to the station in IP6 (`reason`). */
export class ConversionError extends Error {
  override name = 'ConversionError';
}

export interface ConvertOptions {
  /** Per tool run, default 30000. */
  timeoutMs?: number;
  /** All tool runs of one document together (a scan is three tools and a page each), default 60000. */
  documentMs?: number;
  /** Address-space limit per tool run, default 1 GiB. */
  memoryBytes?: number;
  /** The Tesseract binary, default 'tesseract'. */
  tesseract?: string;
  /** Default 'pdftotext'. */
  pdftotext?: string;
  /** Default 'pdftoppm'. */
  pdftoppm?: string;
  /** How many pages of a scanned PDF are read by OCR, default 5. */
  maxPages?: number;
  /** The most pixels of a PNG's or TIFF's page that is read by OCR, default 40 million. */
  maxPixels?: number;
}

/** A document's limits, with the time its tools must be done by (its documentMs from the start). */
type Limits = Required<ConvertOptions> & { deadline: number };

const DEFAULTS: Required<ConvertOptions> = {
  timeoutMs: 30_000,
  documentMs: 60_000,
  memoryBytes: 1024 ** 3,
  tesseract: 'tesseract',
  pdftotext: 'pdftotext',
  pdftoppm: 'pdftoppm',
  maxPages: 5,
  maxPixels: 40_000_000,
};
/** The most pages of a TIFF that are read by OCR (Tesseract reads every page of one). */
const MAX_TIFF_PAGES = 20;
/** The longest text a document gives. */
const MAX_TEXT = 100_000;
/** What a tool may write to stdout (more is cut off and the tool stopped) and to stderr. */
const MAX_STDOUT = 5 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;
/** A text layer with fewer letters is a scan (perhaps with a fax server's header line): it is read by OCR. */
const MIN_PDF_LETTERS = 20;
/** Psm 6 ("one uniform block of text") keeps a fax's "Label:   value" columns on one line. */
const TESSERACT_ARGS = ['-l', 'deu', '--psm', '6'];
const TESSERACT_MISSING = 'OCR needs Tesseract with German data: install tesseract-ocr and tesseract-ocr-deu';
const PRLIMIT = '/usr/bin/prlimit';
const hasPrlimit = fs.existsSync(PRLIMIT);

export async function documentText(body: Buffer, type: DocumentType, options?: ConvertOptions): Promise<DocumentText> {
  return convert(body, type, limitsOf(options), 0);
}

/** An e-mail (RFC 822 source) as the e-mail input reads it: its sender's address, subject, and the text of its text part, else of its first PDF or image attachment. */
export async function mailText(source: Buffer, options?: ConvertOptions): Promise<DocumentText & { from: string }> {
  const limits = limitsOf(options);
  if (source.length === 0) throw new ConversionError('the document is empty');
  return mailAt(source, limits, 1);
}

function limitsOf(options: ConvertOptions = {}): Limits {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const limits = { ...DEFAULTS, ...defined };
  return { ...limits, deadline: Date.now() + limits.documentMs };
}

async function convert(body: Buffer, type: DocumentType, limits: Limits, mailDepth: number): Promise<DocumentText> {
  if (body.length === 0) throw new ConversionError('the document is empty');
  switch (type) {
    case 'text/plain': {
      const text = finished(decodeText(body));
      if (!text) throw new ConversionError('the document has no text');
      return { text, via: 'text' };
    }
    case 'application/pdf':
      return pdfText(body, limits);
    case 'image/png':
    case 'image/tiff':
      return { text: withLetters(await ocrImage(body, type, limits)), via: 'ocr' };
    case 'message/rfc822':
      return mailAt(body, limits, mailDepth + 1);
    default:
      throw new ConversionError(`documents of type ${String(type)} are not read (only ${DOCUMENT_TYPES.join(', ')})`);
  }
}

// ------------------------------------------------------------------------------------------- e-mail

/** The top mail is depth 1; a mail attached to it 2; one attached to that is not read. */
const MAX_MAIL_DEPTH = 2;

async function mailAt(source: Buffer, limits: Limits, depth: number): Promise<DocumentText & { from: string }> {
  if (depth > MAX_MAIL_DEPTH) {
    throw new ConversionError('the e-mail holds mails nested too deep (a mail attached to a mail attached to a mail)');
  }
  let mail: MailParts;
  try {
    mail = await readMail(source);
  } catch (err) {
    throw new ConversionError(`the e-mail could not be read (${mailProblem(err)})`, { cause: err });
  }
  const about = { from: mail.from, ...(mail.subject ? { subject: mail.subject } : {}) };
  if (mail.text !== undefined) return { text: finished(mail.text), via: 'mail', ...about };
  if (!mail.attachment) throw new ConversionError('the e-mail has no text and no PDF or image attached');
  const read = await convert(mail.attachment.body, mail.attachment.type, limits, depth);
  return { text: read.text, via: read.via, ...about };
}

// The MIME parser's own limits (docs/inputs.md "Documents", Limits), in words a station admin reads.
function mailProblem(err: unknown): string {
  const said = err instanceof Error ? err.message : String(err);
  if (/child nodes exceeded/i.test(said)) return 'it has more than 1,000 parts, nested or not';
  if (/header size .* exceeded/i.test(said)) return 'the headers of it or of a part are larger than 1 MiB';
  return said;
}

// ------------------------------------------------------------------------------------------- text

// Windows-1252's characters at 0x80–0x9F (Latin-1 has control codes there); the five it leaves
// undefined stay as they are. Node 20's TextDecoder('windows-1252') decodes these as Latin-1.
const CP1252 = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';

/** UTF-8, else Windows-1252 (a superset of ISO-8859-1 for text). */
export function decodeText(body: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return body.toString('latin1').replace(/[\x80-\x9f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]);
  }
}

/** LF line ends, no NUL, pages apart by a blank line, trimmed, at most MAX_TEXT characters. */
export function finished(text: string): string {
  const clean = text
    .replace(/\r\n?/g, '\n')
    .replace(/\0/g, '')
    .replace(/[ \t]*\f[ \t]*/g, '\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (clean.length <= MAX_TEXT) return clean;
  // Never end on half a surrogate pair.
  return clean.slice(0, MAX_TEXT).replace(/[\ud800-\udbff]$/, '');
}

const lettersIn = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

function withLetters(text: string): string {
  const clean = finished(text);
  if (lettersIn(clean) === 0) throw new ConversionError('the document has no text (an empty page?)');
  return clean;
}

// ------------------------------------------------------------------------------------------- PDF

async function pdfText(body: Buffer, limits: Limits): Promise<DocumentText> {
  if (!body.subarray(0, 1024).includes('%PDF-')) throw new ConversionError('the file is not a PDF');
  const run = await runTool(limits.pdftotext, ['-layout', '-enc', 'UTF-8', '-', '-'], limits, body);
  failed(run, 'pdftotext', 'reading the PDF', 'the PDF could not be read', limits);
  const layer = finished(run.stdout.toString('utf8'));
  if (lettersIn(layer) >= MIN_PDF_LETTERS) return { text: layer, via: 'pdf-text' };
  // A scan: read its pages by OCR; a short text layer (a fax header) is kept when OCR finds nothing.
  const scanned = finished(await ocrPdf(body, limits));
  if (lettersIn(scanned) > lettersIn(layer)) return { text: scanned, via: 'ocr' };
  if (lettersIn(layer) > 0) return { text: layer, via: 'pdf-text' };
  throw new ConversionError('the document has no text (an empty page?)');
}

async function ocrPdf(body: Buffer, limits: Limits): Promise<string> {
  await tesseractReady(limits);
  return inTempDir(async (dir) => {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, body);
    const args = ['-r', '300', '-gray', '-png', '-f', '1', '-l', String(limits.maxPages), file, path.join(dir, 'page')];
    failed(
      await runTool(limits.pdftoppm, args, limits),
      'pdftoppm',
      'rendering the PDF for OCR',
      'the PDF could not be rendered for OCR',
      limits,
    );
    const pages = (await readdir(dir))
      .filter((name) => /^page-\d+\.png$/.test(name))
      .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')));
    if (pages.length === 0) throw new ConversionError('the PDF has no pages');
    const texts: string[] = [];
    for (const page of pages) texts.push(finished(await tesseract(path.join(dir, page), limits)));
    return texts.join('\n\n');
  });
}

// ------------------------------------------------------------------------------------------- OCR

async function ocrImage(body: Buffer, type: 'image/png' | 'image/tiff', limits: Limits): Promise<string> {
  // Checked here, not left to Tesseract: it reads a file that is no image as a list of image paths
  // and would read the server's own files.
  if (sniffedType(body) !== type)
    throw new ConversionError(`the file is not a ${type === 'image/png' ? 'PNG' : 'TIFF'} image`);
  // Checked here too: Tesseract decodes the whole image first, and a PNG of a few hundred kilobytes
  // can claim 30,000 × 30,000 pixels (docs/inputs.md "Documents", Limits).
  checkPages(type === 'image/png' ? pngPages(body) : tiffPages(body), limits);
  await tesseractReady(limits);
  return inTempDir(async (dir) => {
    const file = path.join(dir, type === 'image/png' ? 'document.png' : 'document.tif');
    await writeFile(file, body);
    return tesseract(file, limits);
  });
}

interface ImagePage {
  width: number;
  height: number;
}

function checkPages(pages: ImagePage[], limits: Limits): void {
  if (pages.length === 0) throw new ConversionError('the image is damaged: it names no page with its size');
  if (pages.length > MAX_TIFF_PAGES)
    throw new ConversionError(`the image has more than ${MAX_TIFF_PAGES} pages; OCR reads at most ${MAX_TIFF_PAGES}`);
  for (const { width, height } of pages) {
    if (width === 0 || height === 0) throw new ConversionError('the image is damaged: a page has no pixels');
    if (width * height > limits.maxPixels) {
      const megapixels = (n: number) => `${Math.round(n / 1e5) / 10} megapixels`;
      throw new ConversionError(
        `the image is ${width} × ${height} pixels (${megapixels(width * height)}); OCR reads at most ` +
          `${megapixels(limits.maxPixels)} a page (an A4 page at 600 dpi is 35)`,
      );
    }
  }
}

/** A PNG's size, from its IHDR (the chunk that must come first). */
function pngPages(body: Buffer): ImagePage[] {
  if (body.length < 24 || body.toString('latin1', 12, 16) !== 'IHDR') return [];
  return [{ width: body.readUInt32BE(16), height: body.readUInt32BE(20) }];
}

/** Each page's size, from the TIFF's chain of image directories (ImageWidth 256, ImageLength 257). */
function tiffPages(body: Buffer): ImagePage[] {
  if (body.length < 8) return [];
  const little = body[0] === 0x49;
  const u16 = (at: number) => (little ? body.readUInt16LE(at) : body.readUInt16BE(at));
  const u32 = (at: number) => (little ? body.readUInt32LE(at) : body.readUInt32BE(at));
  const pages: ImagePage[] = [];
  const seen = new Set<number>();
  // One more than the limit is enough to refuse; a directory seen before is a loop.
  for (let at = u32(4); at !== 0 && pages.length <= MAX_TIFF_PAGES;) {
    if (seen.has(at) || at + 2 > body.length)
      throw new ConversionError('the image is damaged: its pages cannot be read');
    seen.add(at);
    const count = u16(at);
    if (at + 2 + count * 12 + 4 > body.length)
      throw new ConversionError('the image is damaged: its pages cannot be read');
    const page = { width: 0, height: 0 };
    for (let i = 0; i < count; i++) {
      const entry = at + 2 + i * 12;
      const tag = u16(entry);
      if (tag !== 256 && tag !== 257) continue;
      // SHORT (3) or LONG (4), one value, held in the entry itself.
      const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
      // A tag given twice counts with its larger value: readers differ in which one they keep.
      if (tag === 256) page.width = Math.max(page.width, value);
      else page.height = Math.max(page.height, value);
    }
    pages.push(page);
    at = u32(at + 2 + count * 12);
  }
  return pages;
}

async function tesseract(file: string, limits: Limits): Promise<string> {
  const run = await runTool(limits.tesseract, [file, 'stdout', ...TESSERACT_ARGS], limits);
  failed(run, 'tesseract', 'OCR', 'the image could not be read', limits);
  return run.stdout.toString('utf8');
}

/** Whether each Tesseract binary has German, asked once (a failed check is asked again next time). */
const tesseractChecks = new Map<string, Promise<void>>();

function tesseractReady(limits: Limits): Promise<void> {
  let check = tesseractChecks.get(limits.tesseract);
  if (!check) {
    check = (async () => {
      // Its own time limit: a document's short one is for the document.
      const asking = { ...limits, timeoutMs: 15_000, deadline: Infinity };
      const run = await runTool(limits.tesseract, ['--list-langs'], asking);
      failed(run, 'tesseract', 'asking Tesseract for its languages', 'Tesseract did not start', asking);
      const languages = `${run.stdout.toString('utf8')}\n${run.stderr}`.split(/\r?\n/).map((l) => l.trim());
      if (!languages.includes('deu')) throw new ConversionError(TESSERACT_MISSING);
    })();
    check.catch(() => tesseractChecks.delete(limits.tesseract));
    tesseractChecks.set(limits.tesseract, check);
  }
  return check;
}

// ------------------------------------------------------------------------------------------- tools

interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** The binary (or prlimit's target) was not found. */
  missing: boolean;
  timedOut: boolean;
  /** It was stopped by the document's deadline, before its own time limit. */
  overall?: boolean;
}

/** Throws the ConversionError a failed run means; a run cut at the output cap counts as done. */
function failed(run: ToolRun, tool: string, doing: string, unreadable: string, limits: Limits): void {
  if (run.missing) {
    throw new ConversionError(tool === 'tesseract' ? TESSERACT_MISSING : `${tool} is missing: install poppler-utils`);
  }
  if (run.timedOut && run.overall)
    throw new ConversionError(`reading the document took longer than ${duration(limits.documentMs)} altogether`);
  if (run.timedOut) throw new ConversionError(`${doing} took longer than ${duration(limits.timeoutMs)}`);
  if (run.code === 0) return;
  const said = telling(run.stderr, tool === 'pdftotext' || tool === 'pdftoppm');
  const why = run.signal
    ? `stopped by ${run.signal}${said ? `: ${said}` : ''}; perhaps beyond its memory limit of ${Math.round(limits.memoryBytes / 1024 ** 2)} MB`
    : said || `exit code ${run.code}`;
  throw new ConversionError(`${unreadable} (${tool}: ${why})`);
}

/** The line of a tool's stderr that says most: poppler ends with the cause, Tesseract starts with it. */
function telling(stderr: string, last: boolean): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.replace(/[^\P{C}\t]/gu, '').trim())
    .filter((line) => line && !/^(Estimating resolution|Warning|Detected \d+ diacritics)/i.test(line));
  const line = (last ? lines.at(-1) : lines[0]) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function duration(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'alarm-hub-document-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// At most this many tools run at once, whatever arrives: OCR takes a core and up to memoryBytes.
const MAX_RUNNING = Math.max(1, Math.min(4, os.availableParallelism()));
let running = 0;
const waiting: Array<() => void> = [];

async function runTool(command: string, args: string[], limits: Limits, input?: Buffer): Promise<ToolRun> {
  // A finished run hands its slot straight to the next waiting one.
  if (running < MAX_RUNNING) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await spawned(command, args, limits, input);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function spawned(command: string, args: string[], limits: Limits, input?: Buffer): Promise<ToolRun> {
  const [file, argv] = hasPrlimit ? [PRLIMIT, [`--as=${limits.memoryBytes}`, '--', command, ...args]] : [command, args];
  // Its own limit, or what is left of the document's (docs/inputs.md "Documents", Limits).
  const left = limits.deadline - Date.now();
  const overall = left < limits.timeoutMs;
  if (left <= 0)
    return Promise.resolve({
      code: null,
      signal: null,
      stdout: Buffer.alloc(0),
      stderr: '',
      missing: false,
      timedOut: true,
      overall,
    });
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let timedOut = false;
    let settled = false;
    // One thread: OpenMP's threads would each reserve address space, and the service has other work.
    const child = spawn(file, argv, {
      stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      Math.min(limits.timeoutMs, left),
    );
    const done = (run: Omit<ToolRun, 'stdout' | 'stderr' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...run, stdout: Buffer.concat(out), stderr, timedOut, overall });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      if (outBytes >= MAX_STDOUT) return;
      out.push(chunk.subarray(0, MAX_STDOUT - outBytes));
      outBytes += chunk.length;
      // Enough: the text is capped far below this anyway.
      if (outBytes >= MAX_STDOUT) {
        done({ code: 0, signal: null, missing: false });
        child.kill('SIGKILL');
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.toString('utf8');
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      done({ code: null, signal: null, missing: err.code === 'ENOENT' });
    });
    child.on('close', (code, signal) => {
      // prlimit says so and exits 127 (126: found but not executable) when it cannot start the tool.
      const missing = hasPrlimit && (code === 127 || code === 126) && /failed to execute/.test(stderr);
      done({ code, signal, missing });
    });
    if (input && child.stdin) {
      child.stdin.on('error', () => {}); // a tool that stops reading early (EPIPE) says why itself
      child.stdin.end(input);
    }
  });
}
