// The one Ajv instance: every schema in schemas/ compiled once, looked up by $id.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { badRequest, type ErrorDetail } from '../errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

export type Location = 'query' | 'path' | 'body';

/** A JSON Schema the validator knows by its `$id`. */
export type Schema = { $id: string } & Record<string, unknown>;

/** Bodies up to this size are checked for every problem at once; larger ones stop at the first. */
export const ALL_ERRORS_MAX_BYTES = 16 * 1024;
/** Problems one answer lists at most. */
export const MAX_DETAILS = 20;

/** Compiled schemas by $id, plus the raw schemas for the OpenAPI document. */
export class Validator {
  private readonly first: Ajv;
  private readonly every: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly compiledEvery = new Map<string, ValidateFunction>();

  /** `schemas`: every schema of the service (server/areas/index.ts collects them). */
  constructor(readonly schemas: readonly Schema[]) {
    // Two compilations of every schema: one that names every problem (parameters, and bodies up to
    // ALL_ERRORS_MAX_BYTES, so a client fixes a request in one go), and one that stops at the first
    // (larger bodies: the cost of collecting errors grows with the body, a denial-of-service lever).
    const options = { strict: true, strictTypes: false, allowUnionTypes: true } as const;
    this.first = addFormats(new Ajv({ ...options, allErrors: false }));
    this.every = addFormats(new Ajv({ ...options, allErrors: true }));
    for (const schema of schemas) {
      this.first.addSchema(schema);
      this.every.addSchema(schema);
    }
    for (const schema of schemas) {
      this.compiled.set(schema.$id, this.first.getSchema(schema.$id)!);
      this.compiledEvery.set(schema.$id, this.every.getSchema(schema.$id)!);
    }
  }

  /** The raw schema registered under `id`. */
  schema(id: string): Record<string, unknown> {
    const found = this.schemas.find((s) => s.$id === id);
    if (!found) throw new Error(`unknown schema ${id}`);
    return found;
  }

  /**
   * Returns `value` typed as T when it matches schema `id`; otherwise throws a 400 with `message` whose
   * details name every problem (at most MAX_DETAILS), or only the first for a body over
   * ALL_ERRORS_MAX_BYTES (`bytes`: its size as received; unknown, as for hub messages, counts as large).
   */
  check<T>(id: string, value: unknown, where: Location, message: string, bytes = Infinity): T {
    const validate = this.compiled.get(id);
    if (!validate) throw new Error(`unknown schema ${id}`);
    if (validate(value)) return value as T;
    const every = bytes <= ALL_ERRORS_MAX_BYTES ? this.compiledEvery.get(id)! : null;
    const errors = every && !every(value) ? (every.errors ?? []) : (validate.errors ?? []);
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    for (const error of errors) {
      const found = detail(error, where);
      const key = `${found.path}\u0000${found.problem}`;
      if (seen.has(key)) continue;
      seen.add(key);
      details.push(found);
      if (details.length === MAX_DETAILS) break;
    }
    const code = where === 'body' ? 'invalid_body' : 'invalid_parameter';
    throw badRequest(code, message, details);
  }

  /**
   * A body as schema `id` spells the organization: the areas inherited both `organizationID` (monitor,
   * sms, call, alarms) and `organizationId` (journal, things) from the 2019 interface, and a client
   * that sends the other spelling (where the schema has one and the body not) is taken at its word
   * (docs/api.md "Base, formats, IDs").
   */
  organizationSpelling(id: string, body: unknown): unknown {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const properties = (this.schema(id).properties ?? {}) as Record<string, unknown>;
    for (const [wanted, other] of [
      ['organizationID', 'organizationId'],
      ['organizationId', 'organizationID'],
    ]) {
      if (wanted in properties && !(other in properties) && other in body && !(wanted in body)) {
        const { [other]: value, ...rest } = body as Record<string, unknown>;
        return { ...rest, [wanted]: value };
      }
    }
    return body;
  }

  /** The 400 for a request that needs a body and sent none. */
  missingBody(message: string) {
    return badRequest('invalid_body', message, [{ in: 'body', path: '(body)', problem: 'is required' }]);
  }

  /** Turns query or path strings into the numbers and booleans their schema asks for, then checks them. */
  checkParams<T>(id: string, raw: Record<string, unknown>, where: 'query' | 'path', message: string): T {
    const props = (this.schema(id).properties ?? {}) as Record<string, { type?: string }>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      // A repeated query parameter arrives as an array; its schema wants one value.
      out[key] = coerce(value, props[key]?.type);
    }
    // Query strings and paths are bounded by Node's header limit (16 KiB): every problem is named.
    return this.check<T>(id, out, where, message, 0);
  }
}

function coerce(value: unknown, type: string | undefined): unknown {
  if (typeof value !== 'string') return value;
  // Integers in digits only, so "1.0" or "1e1" do not give one resource several URLs.
  if (type === 'integer' && /^-?\d+$/.test(value)) return Number(value);
  if (type === 'number' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function allowed(error: ErrorObject): string {
  return ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ');
}

function detail(error: ErrorObject, where: Location): ErrorDetail {
  const missing =
    error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : undefined;
  const extra =
    error.keyword === 'additionalProperties'
      ? (error.params as { additionalProperty: string }).additionalProperty
      : undefined;
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const path = [base, missing ?? extra].filter(Boolean).join('.');
  const problem = missing
    ? 'is required'
    : extra
      ? 'is not allowed'
      : error.keyword === 'enum'
        ? `must be one of ${allowed(error)}`
        : (error.message ?? 'is invalid');
  return { in: where, path: path || (where === 'body' ? '(body)' : '(parameters)'), problem };
}
