// Service basics over the wire: health, readiness, request ids, body limits and media types, error
// bodies, the OpenAPI document and graceful shutdown.
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client, request, type Reply } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  a: OrgFixture;
}

const MiB = 1024 * 1024;

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A request through node:http, for bodies fetch cannot shape (chunked, oversized, partly sent). */
function rawRequest(
  port: number,
  opts: http.RequestOptions,
  send: (req: http.ClientRequest) => void,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, ...opts }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }),
      );
    });
    // The server may answer (413) and close before the whole body is written; the reply still counts.
    req.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET'
        ? undefined
        : reject(err),
    );
    send(req);
  });
}

function assertErrorBody(body: any, error: string) {
  assert.type(body, 'object');
  assert.is(body.error, error);
  assert.type(body.message, 'string');
  assert.type(body.requestId, 'string');
}

const basics = suite<Ctx>('service basics', {} as Ctx);

basics.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.a = await createOrg(ctx.svc);
});

basics.after(async (ctx) => {
  await ctx.svc.close();
});

basics('/healthz 200 without a credential', async (ctx) => {
  const res = await request(ctx.svc.url, 'GET', '/healthz');
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'ok' });
});

basics('/readyz 200 with the mongodb check ok', async (ctx) => {
  const res = await request(ctx.svc.url, 'GET', '/readyz');
  assert.is(res.status, 200);
  assert.is(res.body.status, 'ready');
  assert.is(res.body.checks.mongodb.ok, true);
});

basics('X-Request-Id is echoed when sent and generated when not, on success and on error', async (ctx) => {
  const sent = await request(ctx.svc.url, 'GET', '/healthz', { headers: { 'X-Request-Id': 'trace-4711.a:b' } });
  assert.is(sent.headers.get('x-request-id'), 'trace-4711.a:b');
  const failed = await request(ctx.svc.url, 'GET', '/api/v1/monitor/1', { headers: { 'X-Request-Id': 'trace-4712' } });
  assert.is(failed.status, 401);
  assert.is(failed.headers.get('x-request-id'), 'trace-4712');
  assert.is(failed.body.requestId, 'trace-4712');
  const [one, two] = await Promise.all([
    request(ctx.svc.url, 'GET', '/healthz'),
    request(ctx.svc.url, 'GET', '/healthz'),
  ]);
  assert.match(one.headers.get('x-request-id') ?? '', /^[A-Za-z0-9._:-]{8,}$/);
  assert.is.not(one.headers.get('x-request-id'), two.headers.get('x-request-id'));
  // A malformed id (spaces, too long) is replaced rather than echoed into logs.
  const bad = await request(ctx.svc.url, 'GET', '/healthz', { headers: { 'X-Request-Id': 'x'.repeat(300) } });
  assert.is.not(bad.headers.get('x-request-id'), 'x'.repeat(300));
});

basics('401 unauthorized before anything else under /api/v1, with the error body', async (ctx) => {
  const res = await request(ctx.svc.url, 'POST', '/api/v1/monitor', { body: { name: 'x' } });
  expectError(res, 401, 'unauthorized');
});

basics('400 invalid_json for a malformed JSON body', async (ctx) => {
  const res = await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
    auth: { apiKey: ctx.a.apiKey },
    body: '{"name": "Hall",',
  });
  expectError(res, 400, 'invalid_json');
});

basics('400 when both credentials are sent at once', async (ctx) => {
  const res = await request(ctx.svc.url, 'GET', `/api/v1/monitor?organization=${ctx.a.orgId}`, {
    headers: { 'API-TOKEN': ctx.a.apiKey, 'Personal-Access-Token': ctx.a.admin.token },
  });
  expectError(res, 400, 'invalid_parameter');
});

basics('header names are case-insensitive: api-token and personal-access-token work', async (ctx) => {
  const path = `/api/v1/monitor?organization=${ctx.a.orgId}`;
  assert.is((await request(ctx.svc.url, 'GET', path, { headers: { 'api-token': ctx.a.apiKey } })).status, 200);
  assert.is((await request(ctx.svc.url, 'GET', path, { headers: { 'API-Token': ctx.a.apiKey } })).status, 200);
  assert.is(
    (await request(ctx.svc.url, 'GET', path, { headers: { 'personal-access-token': ctx.a.member.token } })).status,
    200,
  );
});

basics('404 not_found with the error body for an unknown route', async (ctx) => {
  expectError(await request(ctx.svc.url, 'GET', '/nowhere'), 404, 'not_found');
  expectError(
    await request(ctx.svc.url, 'GET', '/api/v1/nowhere', { auth: { apiKey: ctx.a.apiKey } }),
    404,
    'not_found',
  );
});

basics('405 with the error body and an Allow header for a method the route does not have', async (ctx) => {
  const res = await request(ctx.svc.url, 'PATCH', '/api/v1/monitor', {
    auth: { apiKey: ctx.a.apiKey },
    body: { id: 1 },
  });
  assert.is(res.status, 405);
  assertErrorBody(res.body, 'method_not_allowed');
  assert.equal(res.headers.get('allow')!.split(', ').sort(), ['GET', 'HEAD', 'POST', 'PUT']);
});

basics(
  'each route is found on its side of /api/: the API in any case of its path, health, documents ' +
    'and the display outside it',
  async (ctx) => {
    const auth = { auth: { apiKey: ctx.a.apiKey } };
    assert.is(
      (await request(ctx.svc.url, 'GET', `/API/V1/monitor?organization=${ctx.a.orgId}`, auth)).status,
      200,
      'routes match without regard to case',
    );
    expectError(await request(ctx.svc.url, 'GET', '/Api/v1/monitor'), 401, 'unauthorized');
    expectError(await request(ctx.svc.url, 'GET', '/api/v1/healthz', auth), 404, 'not_found');
    expectError(await request(ctx.svc.url, 'GET', '/api/docs', auth), 404, 'not_found');
    for (const path of ['/healthz', '/HEALTHZ', '/openapi.json', '/docs', '/display'])
      assert.is((await request(ctx.svc.url, 'GET', path)).status, 200, path);
    // Methods a route lacks are told apart on both sides as before: 405 with Allow, OPTIONS, 501.
    for (const path of ['/healthz', '/api/v1/monitor/1']) {
      const res = await request(ctx.svc.url, 'OPTIONS', path, auth);
      assert.is(res.status, 200, `OPTIONS ${path}`);
      assert.ok(res.headers.get('allow')?.includes('GET'), `Allow of ${path}: ${res.headers.get('allow')}`);
    }
    const post = await request(ctx.svc.url, 'POST', '/healthz');
    assert.is(post.status, 405);
    assertErrorBody(post.body, 'method_not_allowed');
    assert.equal(post.headers.get('allow')!.split(', ').sort(), ['GET', 'HEAD']);
    for (const path of ['/healthz', '/api/v1/monitor'])
      expectError(await request(ctx.svc.url, 'PROPFIND', path, auth), 501, 'not_implemented');
  },
);

basics('413 payload_too_large for a declared body over 1 MiB', async (ctx) => {
  const body = JSON.stringify({ name: 'x'.repeat(MiB + 10), organizationID: ctx.a.orgId });
  const res = await rawRequest(
    ctx.svc.port,
    {
      method: 'POST',
      path: '/api/v1/monitor',
      headers: {
        'API-TOKEN': ctx.a.apiKey,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      },
    },
    (req) => req.end(body),
  );
  assert.is(res.status, 413);
  assertErrorBody(res.body, 'payload_too_large');
});

basics('413 payload_too_large for a chunked body that grows over 1 MiB', async (ctx) => {
  // A monitor the key may write: an alarm data write reads its body only once it is authorized.
  const id = (
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post('/api/v1/monitor', {
      name: 'Chunked',
      organizationID: ctx.a.orgId,
    })
  ).body.id;
  const res = await rawRequest(
    ctx.svc.port,
    {
      method: 'PATCH',
      path: `/api/v1/monitor/${id}/data/meta`,
      headers: { 'API-TOKEN': ctx.a.apiKey, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    },
    (req) => {
      req.write('{"tables":{"t":"');
      req.write('y'.repeat(700 * 1024));
      req.end('y'.repeat(700 * 1024) + '"}}');
    },
  );
  assert.is(res.status, 413);
  assertErrorBody(res.body, 'payload_too_large');
});

/** Sends raw bytes on a TCP connection and resolves with everything the server sent until it closed. */
function rawBytes(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (got += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

basics('400 invalid_parameter with the JSON error body for raw UTF-8 in the query: percent-encode it', async (ctx) => {
  const line = Buffer.concat([
    Buffer.from('GET /api/v1/things/records?search='),
    Buffer.from('straße', 'utf8'),
    Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI-TOKEN: ${ctx.a.apiKey}\r\n\r\n`),
  ]);
  const raw = await rawBytes(ctx.svc.port, line);
  const [head, body] = raw.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 400 /);
  assert.match(head, /content-type: application\/json/i);
  const parsed = JSON.parse(body);
  assert.is(parsed.error, 'invalid_parameter');
  assert.match(parsed.message, 'percent-encode non-ASCII characters');
  assertErrorBody(parsed, 'invalid_parameter');
  assert.match(head, new RegExp(`x-request-id: ${parsed.requestId}`, 'i'));
  // Percent-encoded, the same query is an ordinary request.
  assert.is.not(
    (await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).get('/api/v1/monitor?organization=stra%C3%9Fe')).status,
    500,
  );
});

basics('400 with the JSON error body for a request that is not HTTP at all', async (ctx) => {
  const raw = await rawBytes(ctx.svc.port, Buffer.from('HELLO\r\n\r\n'));
  const [head, body] = raw.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 400 /);
  assertErrorBody(JSON.parse(body), 'invalid_parameter');
});

basics('200 for a body just under 1 MiB (the limit is not too tight)', async (ctx) => {
  const id = (
    await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).post('/api/v1/monitor', {
      name: 'Big',
      organizationID: ctx.a.orgId,
    })
  ).body.id;
  const body = { tables: { notes: 'z'.repeat(MiB - 200) } };
  const res = await client(ctx.svc.url, { apiKey: ctx.a.apiKey }).patch(`/api/v1/monitor/${id}/data/meta`, body);
  assert.is(res.status, 200, JSON.stringify(res.body));
});

basics(
  'a JSON body sent as text/plain or without a content type is read as JSON; other media types are 415',
  async (ctx) => {
    const body = JSON.stringify({ name: 'Als Text', organizationID: ctx.a.orgId });
    const asText = await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
      auth: { apiKey: ctx.a.apiKey },
      body,
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    });
    assert.is(asText.status, 201, JSON.stringify(asText.body));
    assert.is(asText.body.name, 'Als Text');
    // fetch labels a string body text/plain; a raw request without the header shows the other case.
    const bare = await rawRequest(
      ctx.svc.port,
      { method: 'POST', path: '/api/v1/monitor', headers: { 'API-TOKEN': ctx.a.apiKey } },
      (req) => req.end(body),
    );
    assert.is(bare.status, 201, JSON.stringify(bare.body));
    const notJson = await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
      auth: { apiKey: ctx.a.apiKey },
      body: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectError(notJson, 400, 'invalid_json');
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      expectError(
        await request(ctx.svc.url, 'POST', '/api/v1/monitor', {
          auth: { apiKey: ctx.a.apiKey },
          body,
          headers: { 'Content-Type': type },
        }),
        415,
        'unsupported_media_type',
      );
    }
  },
);

basics('every error body carries error, message and requestId and nothing internal', async (ctx) => {
  const key = { apiKey: ctx.a.apiKey };
  const replies: Reply[] = await Promise.all([
    request(ctx.svc.url, 'GET', '/api/v1/monitor'),
    request(ctx.svc.url, 'GET', '/api/v1/monitor', { auth: key }),
    request(ctx.svc.url, 'GET', '/api/v1/monitor/abc', { auth: key }),
    request(ctx.svc.url, 'GET', '/api/v1/monitor/424242424', { auth: key }),
    request(ctx.svc.url, 'GET', `/api/v1/monitor?organization=${ctx.a.orgId + 1000}`, { auth: key }),
    request(ctx.svc.url, 'POST', '/api/v1/monitor', { auth: key, body: '[' }),
    request(ctx.svc.url, 'GET', '/nope'),
  ]);
  assert.equal(
    replies.map((r) => r.status),
    [401, 400, 400, 404, 403, 400, 404],
  );
  for (const r of replies) {
    assertErrorBody(r.body, r.body.error);
    assert.match(r.body.error, /^[a-z_]+$/);
    for (const k of Object.keys(r.body))
      assert.ok(['error', 'message', 'details', 'requestId'].includes(k), `unexpected field ${k}`);
    assert.not.match(JSON.stringify(r.body), /at .*\.ts|Mongo|stack/);
  }
});

basics(
  '/openapi.json is OpenAPI 3.1 and documents M1…M10 with x-label, parameters, bodies and ErrorBody',
  async (ctx) => {
    const res = await request(ctx.svc.url, 'GET', '/openapi.json');
    assert.is(res.status, 200);
    const doc = res.body;
    assert.match(doc.openapi, /^3\.1\./);
    assert.ok(doc.components.schemas.ErrorBody, 'ErrorBody schema');
    assert.ok(doc.components.securitySchemes.API_Token && doc.components.securitySchemes['Personal-Access-Token']);
    const ops = new Map<string, { method: string; path: string; op: any }>();
    for (const [p, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods))
        if (!ops.has(op['x-label'])) ops.set(op['x-label'], { method, path: p, op });
    }
    const expected: Record<string, [string, string]> = {
      M1: ['get', '/api/v1/monitor'],
      M2: ['put', '/api/v1/monitor'],
      M3: ['post', '/api/v1/monitor'],
      M4: ['get', '/api/v1/monitor/{monitor_id}'],
      M5: ['delete', '/api/v1/monitor/{monitor_id}'],
      M6: ['get', '/api/v1/monitor/{monitor_id}/data'],
      M7: ['post', '/api/v1/monitor/{monitor_id}/data/alarming'],
      M8: ['patch', '/api/v1/monitor/{monitor_id}/data/alarming'],
      M9: ['post', '/api/v1/monitor/{monitor_id}/data/meta'],
      M10: ['patch', '/api/v1/monitor/{monitor_id}/data/meta'],
    };
    for (const [label, [method, p]] of Object.entries(expected)) {
      const found = ops.get(label);
      assert.ok(found, `${label} documented`);
      assert.is(found!.method, method, label);
      assert.is(found!.path, p, label);
      const { op } = found!;
      const names = op.parameters.map((x: any) => `${x.in}:${x.name}`);
      if (p.includes('{monitor_id}')) assert.ok(names.includes('path:monitor_id'), `${label} monitor_id`);
      if (label === 'M1') assert.ok(names.includes('query:organization'), 'M1 organization');
      const hasBody = ['M2', 'M3', 'M7', 'M8', 'M9', 'M10'].includes(label);
      assert.is(Boolean(op.requestBody), hasBody, `${label} requestBody`);
      if (hasBody) assert.ok(op.requestBody.content['application/json'].schema.$ref, `${label} body schema`);
      const errorRefs = Object.entries<any>(op.responses).filter(
        ([s, r]) => Number(s) >= 400 && r.content['application/json'].schema.$ref === '#/components/schemas/ErrorBody',
      );
      assert.ok(
        errorRefs.some(([s]) => s === '401'),
        `${label} 401 ErrorBody`,
      );
      assert.ok(
        errorRefs.some(([s]) => s === '400'),
        `${label} 400 ErrorBody`,
      );
    }
    // PUT is documented for M7 and M9 as well (compatibility).
    assert.is(doc.paths['/api/v1/monitor/{monitor_id}/data/alarming'].put['x-label'], 'M7');
    assert.is(doc.paths['/api/v1/monitor/{monitor_id}/data/meta'].put['x-label'], 'M9');
    // Every $ref points at a schema that exists.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const r of new Set(refs)) assert.ok(doc.components.schemas[r.slice(22, -1)], `dangling ${r}`);
  },
);

basics.run();

// ---------------------------------------------------------------- graceful shutdown
const shutdown = suite('graceful shutdown');

shutdown('close() lets an in-flight request finish with 200 and refuses new connections', async () => {
  const svc = await startTestService();
  let closed = false;
  try {
    const org = await createOrg(svc);
    const c = client(svc.url, { apiKey: org.apiKey });
    const id = (await c.post('/api/v1/monitor', { name: 'Shutdown', organizationID: org.orgId })).body.id;
    const body = JSON.stringify({ tables: { notes: 'w'.repeat(512 * 1024) } });
    let sendRest: () => void = () => {};
    const inFlight = rawRequest(
      svc.port,
      {
        method: 'PATCH',
        path: `/api/v1/monitor/${id}/data/meta`,
        headers: {
          'API-TOKEN': org.apiKey,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (req) => {
        // Half the body now, the rest after close() began: the request is surely in flight.
        req.write(body.slice(0, 1000));
        sendRest = () => req.end(body.slice(1000));
      },
    );
    // Its headers were read: the request is in flight (however long a busy machine took to get there).
    await once(svc.server, 'request');
    const closing = svc.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    assert.is(closed, false, 'close() waits for the in-flight request');
    const refused = await fetch(`${svc.url}/healthz`).then(
      () => 'answered',
      (err) => (err as { cause?: { code?: string } }).cause?.code ?? String(err),
    );
    assert.is(refused, 'ECONNREFUSED');
    sendRest();
    const res = await inFlight;
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.message, /version 1/);
    await closing;
    assert.is(closed, true);
  } finally {
    if (!closed) await svc.close().catch(() => {});
  }
});

shutdown.run();
