// An operation of the interface (A1…T13) declared once: the router and the OpenAPI document are both
// built from these declarations, so routes and documentation cannot drift apart.
import type Router from '@koa/router';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Context } from 'koa';
import type { Actor, Caller } from '../identity/actor.js';
import { AppError, forbidden, rateLimited, type ErrorDetail } from '../errors.js';
import type { Limits } from './limits.js';
import { DocumentBody } from './document-body.js';
import type { Validator } from './validation.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OperationInput<Q, P, B, A = unknown> {
  query: Q;
  params: P;
  body: B;
  actor: Actor;
  /** The caller as authenticated: the actor, or a screen on operations declared `screens`. */
  caller: Caller;
  ctx: Context;
  /** What `authorize` returned (the loaded resource); undefined when the operation declares none. */
  authorized: A;
}

/** An operation's names: the interface's label and the operationId generated clients call it by. */
export interface Named {
  label: string;
  operationId: string;
}

export interface Operation<Q = any, P = any, B = any, A = any> {
  /** The interface's label, e.g. M7. */
  label: string;
  /**
   * The name generated clients call it by (listMonitors, setMonitorAlarmingData…); an extra method adds "With<Method>".
   */
  operationId: string;
  method: Method;
  /** Further methods accepted on the same path for compatibility (documented too). */
  alsoMethods?: Method[];
  /** Koa style path (`:name`), under /api/v1. */
  path: string;
  summary: string;
  /** Longer text for the OpenAPI document: the behaviour a client must know. */
  description?: string;
  /** Schema $id and the interface's failure wording for each place parameters travel. */
  query?: { schema: string; message: string };
  params?: { schema: string; message: string };
  body?: { schema: string; message: string };
  /**
   * `conditional`: the handler honours If-None-Match against its ETag and may answer 304. `files`: the
   * answer is a file (a FileAnswer from the handler) of one of these media types, not JSON of `schema`.
   */
  response: {
    status: 200 | 201 | 202;
    schema: string;
    description: string;
    headers?: Record<string, string>;
    conditional?: boolean;
    files?: string[];
  };
  /** Failure statuses this operation can answer besides 401, 429, 500 and 503. */
  errors: number[];
  /**
   * False for operations that must never be refused for rate once authorized (alarm data from dispatch
   * systems). They declare `authorize`: requests it refuses (403/404) are counted, and refused with 429
   * past the budget, so another organization's key cannot use the exemption.
   */
  rateLimited?: boolean;
  /** Reachable by a screen token (docs/hub.md "The screen fleet"): the handler then finds the screen in `caller`. */
  screens?: boolean;
  /** Needs no credential; rate limited per client address. Mounted before authentication. */
  public?: boolean;
  /**
   * Its own budget per credential (or address) instead of the general rate: requests per minute (off with the rest).
   */
  perMinute?: number;
  /**
   * Also takes a `text/csv` body: `read` turns it into the JSON body the schema checks and names a body
   * path (`members.3.name`) as the CSV's line, in the 400's details and for the handler
   * (`ctx.state.csvLine`).
   */
  csv?: { read(text: string): { body: unknown; line(path: string): string }; example: string };
  /**
   * Also takes a document of these media types as its body, up to `limitBytes` (IP4, IP5): the handler
   * gets it unparsed as a DocumentBody; a JSON body is checked against `body` as ever (or refused, 415,
   * without one).
   */
  document?: { types: readonly string[]; limitBytes: number };
  /**
   * Problems the schema cannot see (a phone number's validity), added to a schema's 400 so that one
   * answer names every problem; the handler checks them again on a body the schema passed.
   */
  bodyProblems?(body: unknown): ErrorDetail[];
  /** Loads and authorizes before the body is validated; its result reaches the handler as `authorized`. */
  authorize?(input: Omit<OperationInput<Q, P, B, A>, 'body' | 'authorized'>): Promise<A>;
  /**
   * Waits for the request's turn after `authorize` and before its body is read (the alarm data writes'
   * bound per organization); resolves with the release, called once the request is answered.
   */
  admit?(authorized: A, ctx: Context): Promise<() => void>;
  handler(input: OperationInput<Q, P, B, A>): Promise<unknown>;
}

/** A `text/csv` body, as read for an operation that declares `csv`. */
export class CsvText {
  constructor(readonly text: string) {}
}

// A CSV body's problems named by line, as a person finds them in his spreadsheet.
function byLine(err: AppError, line: (path: string) => string): AppError {
  const details = err.details?.map((d) => ({ ...d, path: line(d.path) }));
  return new AppError(err.status, err.code, err.message, details, err.headers);
}

/** What a handler of an operation with `response.files` returns: bytes sent as a download. */
export class FileAnswer {
  constructor(
    readonly body: Buffer,
    readonly type: string,
    readonly filename: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

// A refusal of an exempt operation costs a token; past the budget it becomes a 429.
async function authorizeCounted(
  op: Operation,
  input: Omit<OperationInput<unknown, unknown, unknown>, 'body' | 'authorized'>,
  take: () => Promise<number>,
): Promise<unknown> {
  try {
    return await op.authorize!(input);
  } catch (err) {
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) {
      const wait = await take();
      if (wait) throw rateLimited(wait);
    }
    throw err;
  }
}

/** A schema of schemas/: the one Ajv instance knows it by its $id. */
export interface NamedSchema {
  readonly $id: string;
}

/** Where parameters travel in a declaration: the schema they must match and the interface's failure wording. */
export interface Place<S extends NamedSchema> {
  schema: S;
  message: string;
}

/** The type of a value that passed schema S (query and path strings are turned into numbers and booleans first). */
export type Valid<S> = S extends JSONSchema ? FromSchema<S> : unknown;

/**
 * An operation as an area declares it: the schemas themselves, so the handler's query, params and body
 * are typed from them, and `authorized` from what `authorize` returns.
 */
export interface Declaration<
  QS extends NamedSchema | undefined,
  PS extends NamedSchema | undefined,
  BS extends NamedSchema | undefined,
  A,
> extends Omit<Operation, 'query' | 'params' | 'body' | 'response' | 'authorize' | 'admit' | 'handler'> {
  query?: Place<NonNullable<QS>>;
  params?: Place<NonNullable<PS>>;
  body?: Place<NonNullable<BS>>;
  /** A JSON answer of `schema`, or a file (`files`: its media types; the handler returns a FileAnswer). */
  response: Omit<Operation['response'], 'schema' | 'files'> &
    ({ schema: NamedSchema; files?: undefined } | { schema?: undefined; files: string[] });
  authorize?(input: Omit<OperationInput<Valid<QS>, Valid<PS>, unknown>, 'body' | 'authorized'>): Promise<A>;
  admit?(authorized: A, ctx: Context): Promise<() => void>;
  handler(input: OperationInput<Valid<QS>, Valid<PS>, Valid<BS>, A>): Promise<unknown>;
}

const named = <S extends NamedSchema>(place: Place<S> | undefined) =>
  place && { schema: place.schema.$id, message: place.message };

/** Declares an operation; the router, the validator and the OpenAPI document know its schemas by $id. */
export function defineOperation<
  QS extends NamedSchema | undefined = undefined,
  PS extends NamedSchema | undefined = undefined,
  BS extends NamedSchema | undefined = undefined,
  A = undefined,
>(declaration: Declaration<QS, PS, BS, A>): Operation {
  const { query, params, body, response, ...rest } = declaration;
  return {
    ...rest,
    ...(query && { query: named(query) }),
    ...(params && { params: named(params) }),
    ...(body && { body: named(body) }),
    response: { ...response, schema: response.schema?.$id ?? '' },
  } as Operation;
}

/**
 * Registers operations on a router: rate limit (per credential and address: screens sharing one key
 * from different places do not share a budget), validate query, path and body by schema, run the
 * handler, send its result.
 */
export function mountOperations(
  router: Router,
  validator: Validator,
  operations: Operation[],
  limits: Limits,
  ratePerSecond: number,
): void {
  const limiter = limits.create('requests', ratePerSecond, ratePerSecond * 2);
  for (const op of operations) {
    if (op.rateLimited === false && !op.authorize)
      throw new Error(`${op.label}: an operation exempt from rate limits must declare authorize`);
    for (const method of [op.method, ...(op.alsoMethods ?? [])]) {
      const own = op.perMinute ? limits.create(`operation:${op.label}`, op.perMinute / 60, op.perMinute) : null;
      router[method](op.path, async (ctx: Context) => {
        ctx.state.label = op.label;
        const caller = ctx.state.caller as Caller | undefined;
        if (caller?.kind === 'screen' && !op.screens)
          throw forbidden('A screen token reads its own monitor only (M4, M6)');
        const key = caller ? `${caller.tokenId}@${ctx.ip}` : `public@${ctx.ip}`;
        const readBody = ctx.state.readBody as (() => Promise<unknown>) | undefined;
        ctx.state.acceptsCsv = Boolean(op.csv);
        ctx.state.document = op.document;
        if (op.rateLimited !== false) {
          const wait = await (own ?? limiter).take(key);
          if (wait) throw rateLimited(wait);
          // Its format errors (400, 413, 415) come before the parameters' as they always did. A document
          // (up to 20 MiB) is read only once the caller is authorized for it.
          if (readBody && !op.document) await readBody();
        }
        const params = op.params
          ? validator.checkParams(op.params.schema, { ...ctx.params }, 'path', op.params.message)
          : {};
        const query = op.query
          ? validator.checkParams(op.query.schema, { ...ctx.query }, 'query', op.query.message)
          : {};
        const input = { query, params, actor: caller as Actor, caller: caller as Caller, ctx };
        const authorized = op.authorize
          ? await authorizeCounted(op, input, async () => (op.rateLimited === false ? limiter.take(key) : 0))
          : undefined;
        const release = op.admit ? await op.admit(authorized, ctx) : null;
        try {
          const sent = readBody ? await readBody() : undefined;
          const csv = sent instanceof CsvText ? op.csv!.read(sent.text) : null;
          if (csv) ctx.state.csvLine = csv.line;
          const raw = csv ? csv.body : sent;
          let body: unknown;
          if (raw instanceof DocumentBody) body = raw;
          else if (op.document && !op.body)
            throw new AppError(
              415,
              'unsupported_media_type',
              `The body must be one of ${op.document.types.join(', ')}`,
            );
          else if (op.body) {
            if (raw === undefined) throw validator.missingBody(op.body.message);
            const spelled = validator.organizationSpelling(op.body.schema, raw);
            try {
              body = validator.check(op.body.schema, spelled, 'body', op.body.message, ctx.state.bodyBytes as number);
            } catch (err) {
              if (!(err instanceof AppError)) throw err;
              const more = op.bodyProblems?.(spelled) ?? [];
              const all = more.length
                ? new AppError(err.status, err.code, err.message, [...(err.details ?? []), ...more], err.headers)
                : err;
              throw csv ? byLine(all, csv.line) : all;
            }
          }
          const result = await op.handler({ ...input, body, authorized });
          if (ctx.state.notModified) {
            ctx.status = 304;
            return;
          }
          // A handler may answer another success status it documents (AL1: 200 for a repeated request).
          ctx.status = (ctx.state.status as number | undefined) ?? op.response.status;
          if (result instanceof FileAnswer) {
            ctx.type = result.type;
            ctx.set('Content-Disposition', `attachment; filename="${result.filename}"`);
            for (const [name, value] of Object.entries(result.headers)) ctx.set(name, value);
            ctx.body = result.body;
          } else {
            ctx.body = result;
          }
        } finally {
          release?.();
        }
      });
    }
  }
}
