// Every operation of GroupAlarm's 2019 els-cobra document (docs/reference/groupalarm-2019)
// as swagger-client builds it from that document, sent to the service: the generated requests carry
// organizationID in the path, or for PUT and DELETE of credentials in the query behind the literal
// path placeholder. Without the document (and outside CI) an embedded copy of its parameter placements
// is used, and the first test says which.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { ELS, elsSuite, pem } from './helpers/els-cobra.js';
import type { JournalCtx } from './helpers/journal.js';

type Spec = {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string }> }>>;
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const referenceFile = path.join(repoRoot, 'docs', 'reference', 'groupalarm-2019', 'els-cobra.openapi.json');

// The document's operations and where each puts its parameters (a copy, for machines without it).
function embedded(): Spec {
  const org = (where: string) => ({ name: 'organizationID', in: where, required: true, schema: { type: 'int64' } });
  const service = (required: boolean) => ({ name: 'serviceName', in: 'query', required, schema: { type: 'string' } });
  const body = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
  const paths: Spec['paths'] = {};
  for (const [segment, name] of [
    ['certificate', 'Certificate'],
    ['keyword', 'Keywords'],
    ['login', 'Login'],
  ]) {
    paths[`/${segment}/{organizationID}`] = {
      get: { operationId: `Get${name}`, parameters: [org('path')] },
      put: { operationId: `Store${name}`, parameters: [org('path')], requestBody: body } as never,
      delete: { operationId: `Delete${name}`, parameters: [org('path')] },
    };
  }
  paths['/credentials/{organizationID}'] = {
    get: { operationId: 'GetCredentials', parameters: [org('path'), service(false)] },
    put: { operationId: 'StoreCredentials', parameters: [org('query'), service(true)], requestBody: body } as never,
    delete: { operationId: 'DeleteCredentials', parameters: [org('query'), service(true)] },
  };
  return { servers: [{ url: 'https://app.groupalarm.com/api/v1/els-cobra' }], paths };
}

function loadSpec(): { spec: Spec; from: string } {
  if (fs.existsSync(referenceFile))
    return { spec: JSON.parse(fs.readFileSync(referenceFile, 'utf8')), from: 'document' };
  // CI has the document beside the clone: there, its absence is a failure, not a fallback.
  if (process.env.CI) throw new Error(`${referenceFile} is missing: CI must test against the 2019 document itself`);
  process.stderr.write(
    `[els-cobra-compat] ${referenceFile} not found; using the embedded copy of its parameter placements\n`,
  );
  return { spec: embedded(), from: 'embedded copy' };
}

const { spec, from } = loadSpec();
// swagger-client ships no types; it is loaded by name so TypeScript does not look for them.
const swaggerModule = 'swagger-client';
const SwaggerClient = (
  (await import(swaggerModule)) as {
    default: {
      buildRequest(o: unknown): { url: string; method: string; headers: Record<string, string>; body?: unknown };
    };
  }
).default;

const compat = elsSuite(`E1–E7 requests built by swagger-client from the 2019 els-cobra ${from}`);

/** Builds the request of `method route` from the document and sends it with the credential header. */
async function call(
  ctx: JournalCtx,
  method: string,
  route: string,
  parameters: Record<string, unknown>,
  requestBody?: unknown,
  header: Record<string, string> = { 'API-TOKEN': ctx.a.apiKey },
) {
  const operation = spec.paths[route]?.[method];
  assert.ok(operation, `${method} ${route} is in the ${from}`);
  const pointed = { ...spec, servers: [{ url: ctx.svc.url + new URL(spec.servers[0].url).pathname }] };
  const req = SwaggerClient.buildRequest({
    spec: pointed,
    operationId: operation.operationId,
    parameters,
    requestBody,
  });
  const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  const res = await fetch(req.url, { method: req.method, headers: { ...req.headers, ...header }, body });
  const text = await res.text();
  return { url: req.url, status: res.status, body: text ? JSON.parse(text) : undefined };
}

compat("the document's base path is ours, and the embedded copy places every parameter as the document does", () => {
  assert.is(new URL(spec.servers[0].url).pathname, ELS);
  for (const [route, methods] of Object.entries(embedded().paths)) {
    for (const [method, op] of Object.entries(methods)) {
      assert.equal(spec.paths[route][method].operationId, op.operationId);
      assert.equal(
        spec.paths[route][method].parameters!.map((p) => [p.name, p.in]),
        op.parameters!.map((p) => [p.name, p.in]),
      );
    }
  }
});

compat("certificate: Store, Get (API key and an admin's Personal-Access-Token), Delete", async (ctx) => {
  const org = ctx.a.orgId;
  const set = { certificate: pem().leaf, caChain: pem().caChain, privateKey: pem().leafKey, organizationId: org };
  const stored = await call(ctx, 'put', '/certificate/{organizationID}', { organizationID: org }, set);
  assert.is(stored.status, 200, JSON.stringify(stored.body));
  assert.equal(stored.body, set);
  assert.equal((await call(ctx, 'get', '/certificate/{organizationID}', { organizationID: org })).body, set);
  const asAdmin = await call(ctx, 'get', '/certificate/{organizationID}', { organizationID: org }, undefined, {
    'Personal-Access-Token': ctx.a.admin.token,
  });
  assert.equal(asAdmin.body, set);
  assert.is((await call(ctx, 'delete', '/certificate/{organizationID}', { organizationID: org })).status, 200);
  assert.is((await call(ctx, 'get', '/certificate/{organizationID}', { organizationID: org })).status, 404);
});

compat(
  'credentials: Store and Delete with organizationID in the query (path placeholder), Get one and all',
  async (ctx) => {
    const org = ctx.a.orgId;
    const credentials = {
      organizationId: org,
      serviceName: 'cobra alarm',
      username: 'ils',
      password: 'gehe im',
      url: 'https://cobra.example/api',
    };
    const stored = await call(
      ctx,
      'put',
      '/credentials/{organizationID}',
      { organizationID: org, serviceName: 'cobra alarm' },
      credentials,
    );
    assert.match(stored.url, '{organizationID}?organizationID=');
    assert.is(stored.status, 200, JSON.stringify(stored.body));
    assert.equal(stored.body, credentials);
    assert.equal(
      (await call(ctx, 'get', '/credentials/{organizationID}', { organizationID: org, serviceName: 'cobra alarm' }))
        .body,
      credentials,
    );
    assert.equal((await call(ctx, 'get', '/credentials/{organizationID}', { organizationID: org })).body, [
      credentials,
    ]);
    assert.is(
      (await call(ctx, 'delete', '/credentials/{organizationID}', { organizationID: org, serviceName: 'cobra alarm' }))
        .status,
      200,
    );
    assert.equal((await call(ctx, 'get', '/credentials/{organizationID}', { organizationID: org })).body, []);
  },
);

compat(
  'keyword list and login: Store, Get, Delete as the document shapes them (Go zero values included)',
  async (ctx) => {
    const org = ctx.a.orgId;
    const keywords = {
      organizationId: org,
      keywordScenarioList: [{ keyword_1: 'B2', keyword_2: '', type_1: '', type_2: '', priority: 0, scenarioIds: [3] }],
    };
    assert.equal(
      (await call(ctx, 'put', '/keyword/{organizationID}', { organizationID: org }, keywords)).body,
      keywords,
    );
    assert.equal((await call(ctx, 'get', '/keyword/{organizationID}', { organizationID: org })).body, keywords);
    const login = { organizationId: org, url: 'https://cobra.leitstelle.example/login' };
    assert.equal((await call(ctx, 'put', '/login/{organizationID}', { organizationID: org }, login)).body, login);
    assert.equal((await call(ctx, 'get', '/login/{organizationID}', { organizationID: org })).body, login);
    for (const route of ['/keyword/{organizationID}', '/login/{organizationID}']) {
      assert.is((await call(ctx, 'delete', route, { organizationID: org })).status, 200);
      assert.is((await call(ctx, 'get', route, { organizationID: org })).status, 404);
    }
  },
);

compat.run();
