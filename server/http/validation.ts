// The one Ajv instance: every schema in schemas/ compiled once, looked up by $id.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { allSchemas } from '../../schemas/index.js';
import { badRequest, type ErrorDetail } from './errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export type Location = 'query' | 'path' | 'body';

/** Compiled schemas by $id, plus the raw schemas for the OpenAPI document. */
export class Validator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly schemas = allSchemas) {
    // allErrors stays off: one error per request is enough and avoids a denial-of-service lever.
    this.ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false, allowUnionTypes: true });
    addFormats(this.ajv);
    for (const schema of schemas) this.ajv.addSchema(schema);
    for (const schema of schemas) this.compiled.set(schema.$id, this.ajv.getSchema(schema.$id)!);
  }

  /** The raw schema registered under `id`. */
  schema(id: string): Record<string, unknown> {
    const found = this.schemas.find((s) => s.$id === id);
    if (!found) throw new Error(`unknown schema ${id}`);
    return found;
  }

  /** Returns `value` typed as T when it matches schema `id`; otherwise throws a 400 with `message`. */
  check<T>(id: string, value: unknown, where: Location, message: string): T {
    const validate = this.compiled.get(id);
    if (!validate) throw new Error(`unknown schema ${id}`);
    if (validate(value)) return value as T;
    const code = where === 'body' ? 'invalid_body' : 'invalid_parameter';
    throw badRequest(code, message, (validate.errors ?? []).map((e) => detail(e, where)));
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
    return this.check<T>(id, out, where, message);
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
  const missing = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : undefined;
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty : undefined;
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const path = [base, missing ?? extra].filter(Boolean).join('.');
  const problem = missing ? 'is required' : extra ? 'is not allowed' : error.keyword === 'enum' ? `must be one of ${allowed(error)}` : (error.message ?? 'is invalid');
  return { in: where, path: path || (where === 'body' ? '(body)' : '(parameters)'), problem };
}
