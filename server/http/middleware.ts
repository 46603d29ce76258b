// The outer request pipeline: error rendering, request id, access log, JSON body parsing.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { translateDbError } from '../db/errors.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { locateJsonError } from './json-error.js';
import { DOCUMENT_LIMIT, DocumentBody } from './document-body.js';
import { CsvText } from './operation.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Outermost: renders every failure as docs/api.md "Errors"'s body; 5xx bodies never carry internals. */
export function errorHandler(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound('No such route');
      if (ctx.status === 405 && !ctx.body)
        throw new AppError(
          405,
          'method_not_allowed',
          `Method ${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow')}`,
        );
      if (ctx.status === 501 && !ctx.body)
        throw new AppError(501, 'not_implemented', `Method ${ctx.method} is not implemented`);
    } catch (raw) {
      const err = toAppError(raw);
      if (err.status >= 500) log.error({ err: raw, reqId: ctx.state.requestId, status: err.status }, 'request failed');
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers ?? {})) ctx.set(name, value);
      ctx.body = {
        error: err.code,
        message: err.message,
        ...(err.details?.length ? { details: err.details } : {}),
        requestId: ctx.state.requestId,
      };
    }
  };
}

function toAppError(raw: unknown): AppError {
  if (raw instanceof AppError) return raw;
  const db = translateDbError(raw);
  if (db) return db;
  // Koa and the router throw http-errors (405 Method Not Allowed, 501); keep their status.
  const status = (raw as { status?: number; expose?: boolean })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (raw as { expose?: boolean }).expose) {
    const code = status === 405 ? 'method_not_allowed' : status === 404 ? 'not_found' : 'invalid_parameter';
    return new AppError(status, code, (raw as Error).message);
  }
  return new AppError(500, 'internal_error', 'Unexpected error');
}

/** Echoes a well-formed X-Request-Id or makes one. */
export async function requestId(ctx: Context, next: Next) {
  const sent = ctx.get('X-Request-Id');
  ctx.state.requestId = REQUEST_ID.test(sent) ? sent : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}

// Who asked, for following one organization's load in the logs (metrics never carry IDs).
function caller(c: { kind: string; tokenId: number; organizationId?: number; userId?: number } | undefined) {
  if (!c) return {};
  return {
    tokenId: c.tokenId,
    ...(c.organizationId !== undefined ? { org: c.organizationId } : {}),
    ...(c.userId !== undefined ? { user: c.userId } : {}),
  };
}

/** One JSON line per request: id, method, route pattern, caller, status, duration. Never headers or bodies. */
export function accessLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          reqId: ctx.state.requestId,
          method: ctx.method,
          route: ctx._matchedRoute ?? null,
          label: ctx.state.label ?? null,
          ...caller(ctx.state.caller),
          status: ctx.status,
          durationMs: Math.round(durationMs * 100) / 100,
        },
        'request',
      );
    }
  };
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Prepares reading a JSON body of at most `limit` bytes: `ctx.state.readBody()` reads and parses it
 * once (undefined when empty). The operation reads it when it needs it — after authentication, and for
 * alarm data writes after authorization and their organization's turn — so a refused or waiting
 * request costs no body read. A declared Content-Length over the limit is refused at once.
 */
export function jsonBody(limit: number) {
  return async (ctx: Context, next: Next) => {
    if (!WITH_BODY.has(ctx.method)) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    // An operation that takes documents (IP4, IP5) has a larger limit of its own, checked when it reads.
    if (declared > Math.max(limit, DOCUMENT_LIMIT))
      throw new AppError(
        413,
        'payload_too_large',
        `Request bodies are limited to ${limit} bytes (documents sent to IP4 and IP5 to ${DOCUMENT_LIMIT})`,
      );
    let read: Promise<unknown> | null = null;
    ctx.state.readBody = () => (read ??= parseBody(ctx, limit));
    await next();
  };
}

async function parseBody(ctx: Context, limit: number): Promise<unknown> {
  const document = ctx.state.document as { types: readonly string[]; limitBytes: number } | undefined;
  const documentType = document && ctx.get('Content-Type') ? ctx.is(...document.types) : false;
  const takesDocument = typeof documentType === 'string';
  const max = takesDocument ? document!.limitBytes : limit;
  if (Number(ctx.get('Content-Length') || 0) > max) throw payloadTooLarge(max);
  const raw = await readLimited(ctx, max);
  ctx.state.bodyBytes = raw.length;
  // The type as listed, whatever case or parameters the client wrote it with.
  if (takesDocument) return new DocumentBody(documentType, raw);
  if (raw.length === 0) return undefined;
  // JSON is also taken as text/plain or without a content type: the 2019 documents declare no body for
  // some operations that take one, so their generated clients send it that way. Credentials travel in
  // headers a cross-site form cannot set, so this opens no cross-site path (docs/api.md, "REST API").
  if (
    ctx.get('Content-Type') &&
    !ctx.is('application/json', '+json', 'text/plain', ...(ctx.state.acceptsCsv ? ['text/csv'] : []))
  ) {
    throw new AppError(
      415,
      'unsupported_media_type',
      document
        ? `The body must be a document (${document.types.join(', ')}) or JSON`
        : 'Request bodies must be JSON: application/json (text/plain or no content type are read as JSON too)',
    );
  }
  const text = raw.toString('utf8');
  if (ctx.state.acceptsCsv && ctx.is('text/csv')) return new CsvText(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const { line, column, expected } = locateJsonError(text);
    throw badRequest(
      'invalid_json',
      `The body is not valid JSON: at line ${line}, column ${column} expected ${expected}`,
      [{ in: 'body', path: '(body)', problem: `line ${line}, column ${column}: expected ${expected}` }],
    );
  }
  if (depth(body) > MAX_DEPTH) {
    throw badRequest('invalid_body', `The body is nested deeper than ${MAX_DEPTH} levels`, [
      { in: 'body', path: '(body)', problem: `must not nest deeper than ${MAX_DEPTH} levels` },
    ]);
  }
  return body;
}

// Storing or sending a value serialises it recursively; a 100 000-deep body would overflow the stack.
const MAX_DEPTH = 32;

/** Nesting depth of a parsed JSON value, without recursion. */
export function depth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, level] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, level + 1);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, level + 1]);
  }
  return deepest;
}

function payloadTooLarge(limit: number) {
  return new AppError(413, 'payload_too_large', `Request bodies are limited to ${limit} bytes`);
}

async function readLimited(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        // Stop reading; the connection closes after the 413 so the rest is not buffered.
        ctx.req.unpipe();
        ctx.set('Connection', 'close');
        throw payloadTooLarge(limit);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The client went away mid-body: nothing was stored, and it is no server error.
    throw badRequest('invalid_body', 'The request body was not received completely');
  }
  return Buffer.concat(chunks);
}
