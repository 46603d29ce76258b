// /openapi.json is good to generate clients from: every operation described, every body and response
// schema with an example, every example valid against its schema (the service's own Validator), and
// every media type showing one.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { AppError } from '../server/errors.js';
import { serviceSchemas } from '../server/areas/index.js';
import { Validator } from '../server/http/validation.js';
import { request } from './helpers/http.js';
import { startTestService, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  doc: any;
}

const docs = suite<Ctx>('openapi: descriptions and examples', {} as Ctx);
const validator = new Validator(serviceSchemas);

docs.before(async (ctx) => {
  ctx.svc = await startTestService();
  const res = await request(ctx.svc.url, 'GET', '/openapi.json');
  assert.is(res.status, 200);
  ctx.doc = res.body;
});
docs.after(async (ctx) => {
  await ctx.svc.close();
});

type Op = { where: string; op: any };
const operations = (doc: any): Op[] =>
  Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
    Object.entries(methods).map(([method, op]) => ({ where: `${method} ${path}`, op })),
  );

/** Every media type object of an operation, named by where it is. */
function mediaTypes({ where, op }: Op): Array<{ where: string; media: any }> {
  const found = Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({
    where: `${where} request ${type}`,
    media,
  }));
  for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
    for (const [type, media] of Object.entries(response.content ?? {}))
      found.push({ where: `${where} ${status} ${type}`, media });
  }
  return found;
}

const schemaId = (schema: { $ref?: string }) => schema.$ref?.replace('#/components/schemas/', '');

/** Why `value` does not match schema `id`, or null when it does. */
function problemOf(id: string, value: unknown): string | null {
  try {
    validator.check(id, value, 'body', 'example');
    return null;
  } catch (err) {
    if (err instanceof AppError) return JSON.stringify(err.details);
    throw err;
  }
}

docs('every operation has a description of at least one sentence beyond its summary', ({ doc }) => {
  const ops = operations(doc);
  assert.ok(ops.length >= 90, `${ops.length} operations`);
  for (const { where, op } of ops) {
    assert.type(op.description, 'string', `${op['x-label']} (${where}) has a description`);
    assert.ok(op.description.trim().length >= 30, `${op['x-label']} (${where}): "${op.description}"`);
  }
});

docs('every request body and response schema has at least one example', ({ doc }) => {
  const used = new Set<string>();
  // File answers (the journal export) are bytes, not a schema.
  for (const op of operations(doc))
    for (const { media } of mediaTypes(op)) if (media.schema.$ref) used.add(schemaId(media.schema)!);
  assert.ok(used.size >= 80, `${used.size} schemas in bodies and responses`);
  for (const id of used) {
    const examples = doc.components.schemas[id].examples;
    assert.ok(Array.isArray(examples) && examples.length > 0, `${id} has examples`);
  }
});

docs('every example validates against its schema, in the components and on the media types', ({ doc }) => {
  let checked = 0;
  for (const schema of validator.schemas) {
    for (const [i, example] of ((schema.examples as unknown[]) ?? []).entries()) {
      assert.is(problemOf(schema.$id, example), null, `${schema.$id} example ${i}`);
      checked++;
    }
  }
  for (const op of operations(doc)) {
    for (const { where, media } of mediaTypes(op)) {
      if (!media.schema.$ref) continue; // a file answer
      assert.is(problemOf(schemaId(media.schema)!, media.example), null, `${where}: ${JSON.stringify(media.example)}`);
      checked++;
    }
  }
  assert.ok(checked > 300, `${checked} examples checked`);
});

docs('path and query parameters carry examples that together satisfy their schema', ({ doc }) => {
  for (const schema of validator.schemas) {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, { examples?: unknown[] }>);
    const withExamples = properties.filter(([, p]) => p.examples);
    if (withExamples.length === 0) continue;
    const value = Object.fromEntries(withExamples.map(([name, p]) => [name, p.examples![0]]));
    assert.is(problemOf(schema.$id, value), null, `${schema.$id} parameter examples ${JSON.stringify(value)}`);
  }
  for (const { where, op } of operations(doc)) {
    for (const p of op.parameters.filter((p: any) => p.in !== 'header'))
      assert.ok(p.example !== undefined, `${where}: parameter ${p.name} has an example`);
  }
});

docs('every media type with a schema shows an example', ({ doc }) => {
  for (const op of operations(doc)) {
    // A file answer (binary: the journal export) is described by its operation, not by an example.
    for (const { where, media } of mediaTypes(op))
      if (media.schema && media.schema.format !== 'binary')
        assert.ok(media.example !== undefined, `${where} has an example`);
  }
});

docs('a wrong example is caught: the check can fail', () => {
  assert.is.not(problemOf('Device', { id: 15, name: 'Pixel', os: 'android' }), null, 'fields missing');
  assert.is.not(problemOf('M8Body', {}), null, 'an empty patch');
  assert.is.not(
    problemOf('ThingsRecordList', { records: [{ id: 'not-a-uuid', entityID: 'x', values: [] }], total: 1 }),
    null,
    'a record with bad IDs',
  );
});

docs.run();
