// Requests built by swagger-client from GroupAlarm's 2019 app, sms and call documents
// (docs/reference/groupalarm-2019), sent to the service and answered as the documents say.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerClient from 'swagger-client';
import * as assert from 'uvu/assert';
import { channelSuite, type Ctx } from './helpers/channels.js';
import { startPushFakes } from './helpers/push-fakes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const referenceDir = path.join(repoRoot, 'docs', 'reference', 'groupalarm-2019');
type Area = 'app' | 'sms' | 'call';

function loadDocument(area: Area, baseUrl: string): Record<string, any> | null {
  const file = path.join(referenceDir, `${area}.openapi.json`);
  if (!fs.existsSync(file)) {
    // The documents are part of the repository: their absence is a failure in CI.
    if (process.env.CI) throw new Error(`${file} is missing: CI must test against the 2019 document itself`);
    process.stderr.write(`[channels-compat] ${file} not found; the ${area} compatibility tests are skipped\n`);
    return null;
  }
  const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
  // Keep the document's /api/v1/<area> path, on the test service's origin.
  spec.servers[0].url = baseUrl + new URL(spec.servers[0].url).pathname;
  return spec;
}

interface Call {
  auth: { 'API-TOKEN': string } | { 'Personal-Access-Token': string };
  parameters?: Record<string, unknown>;
  requestBody?: unknown;
}

/**
 * Builds the request with swagger-client, picking the operation by method and path (the documents
 * repeat operationIds), and sends it as swagger-client does, plus the credential: a body the document
 * does not describe goes without a JSON content type (fetch labels it text/plain), and is still read.
 */
async function send(spec: Record<string, any>, method: string, route: string, call: Call) {
  assert.ok(spec.paths[route]?.[method], `${method.toUpperCase()} ${route} is in the document`);
  const req = SwaggerClient.buildRequest({
    spec,
    operationId: `${method}-${route}`,
    parameters: call.parameters ?? {},
    requestBody: call.requestBody,
  });
  const headers: Record<string, string> = { ...req.headers, ...call.auth };
  const res = await fetch(req.url, {
    method: req.method,
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  });
  const text = await res.text();
  return { status: res.status, url: req.url as string, body: text ? JSON.parse(text) : undefined };
}

const fakes = await startPushFakes();
const compat = channelSuite(
  'A, S and C requests built by swagger-client from the 2019 documents',
  async () => fakes.env,
);
const docs = (ctx: Ctx) =>
  Object.fromEntries((['app', 'sms', 'call'] as const).map((a) => [a, loadDocument(a, ctx.svc.url)])) as Record<
    Area,
    Record<string, any> | null
  >;
const apiKey = (ctx: Ctx) => ({ 'API-TOKEN': ctx.a.apiKey });
const owner = (ctx: Ctx) => ({ 'Personal-Access-Token': ctx.a.member.token });

compat(
  'app: device List, Create, Get, Update, Delete; disabled Get and Set; push Delivered and Answered',
  async (ctx) => {
    const spec = docs(ctx).app;
    if (!spec) return;
    const device = {
      name: 'iPhone 15',
      os: 'iOS 17.4',
      pushToken: '9a'.repeat(32),
      pushTokenDevelopment: false,
      active: true,
      ownerID: ctx.a.member.userId,
    };
    const created = await send(spec, 'post', '/device', { auth: owner(ctx), requestBody: device });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.id;
    const listed = await send(spec, 'get', '/device', {
      auth: apiKey(ctx),
      parameters: { owner_id: ctx.a.member.userId, organization_id: ctx.a.orgId },
    });
    assert.equal(listed.body, [created.body]);
    assert.equal(
      (await send(spec, 'get', '/device/{deviceID}', { auth: owner(ctx), parameters: { deviceID: id } })).body,
      created.body,
    );
    const updated = await send(spec, 'put', '/device/{deviceID}', {
      auth: owner(ctx),
      parameters: { deviceID: id },
      requestBody: { ...device, id, active: false },
    });
    assert.is(updated.status, 200);
    assert.is(updated.body.active, false);
    assert.equal(
      (
        await send(spec, 'put', '/disabled', {
          auth: apiKey(ctx),
          parameters: { organization_id: ctx.a.orgId },
          requestBody: { isDisabled: true },
        })
      ).body,
      { isDisabled: true },
    );
    assert.equal(
      (await send(spec, 'get', '/disabled', { auth: apiKey(ctx), parameters: { organization_id: ctx.a.orgId } })).body,
      [{ isDisabled: true }],
    );
    // A confirmation token from a real test push (A5 is not in the 2019 document).
    const pushed = await fetch(`${ctx.svc.url}/api/v1/app/device/${id}/test-push`, {
      method: 'POST',
      headers: owner(ctx),
    }).then((r) => r.json());
    assert.is(pushed.status, 'sent');
    assert.equal(
      (
        await send(spec, 'post', '/push/delivered/{token}', {
          auth: owner(ctx),
          parameters: { token: pushed.confirmToken },
        })
      ).body,
      { status: 'saved' },
    );
    const answered = await send(spec, 'post', '/push/answered/{token}/{answer}', {
      auth: owner(ctx),
      parameters: { token: pushed.confirmToken, answer: 'yes' },
      requestBody: { distance: 3, duration: 6 },
    });
    assert.is(answered.status, 200, JSON.stringify(answered.body));
    assert.equal(answered.body, { status: 'saved' });
    assert.equal(
      (await send(spec, 'delete', '/device/{deviceID}', { auth: owner(ctx), parameters: { deviceID: id } })).body,
      { status: 'deleted' },
    );
  },
);

compat(
  'sms: alarming List, Create, Update, Delete; disabled; mobile List, Create, Update, Delete and ' +
    'Get through the placeholder paths',
  async (ctx) => {
    const spec = docs(ctx).sms;
    if (!spec) return;
    const created = await send(spec, 'post', '/alarming', {
      auth: apiKey(ctx),
      requestBody: { id: 0, gsm: '004917612345678', organizationID: ctx.a.orgId, pin: '1234' },
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const updated = await send(spec, 'put', '/alarming', {
      auth: apiKey(ctx),
      requestBody: { ...created.body, pin: '5678' },
    });
    assert.is(updated.body.pin, '5678');
    assert.equal(
      (await send(spec, 'get', '/alarming', { auth: apiKey(ctx), parameters: { organization_id: ctx.a.orgId } })).body,
      [updated.body],
    );
    assert.equal(
      (
        await send(spec, 'delete', '/alarming/{configurationID}', {
          auth: apiKey(ctx),
          parameters: { configurationID: created.body.id },
        })
      ).body,
      { status: 'deleted' },
    );
    assert.equal(
      (
        await send(spec, 'put', '/disabled', {
          auth: apiKey(ctx),
          parameters: { organization_id: ctx.a.orgId },
          requestBody: { isDisabled: false },
        })
      ).body,
      { isDisabled: false },
    );
    assert.equal(
      (await send(spec, 'get', '/disabled', { auth: apiKey(ctx), parameters: { organization_id: ctx.a.orgId } })).body,
      [{ isDisabled: false }],
    );

    const mobile = await send(spec, 'post', '/mobile', {
      auth: owner(ctx),
      requestBody: { active: true, gsm: '004917612345678', id: 0, name: 'Handy', ownerID: ctx.a.member.userId },
    });
    assert.is(mobile.status, 200, JSON.stringify(mobile.body));
    const id = mobile.body.id;
    assert.equal(
      (await send(spec, 'get', '/mobile', { auth: owner(ctx), parameters: { owner_id: ctx.a.member.userId } })).body,
      [mobile.body],
    );
    const changed = await send(spec, 'put', '/mobile', {
      auth: owner(ctx),
      requestBody: { ...mobile.body, name: 'Diensthandy' },
    });
    assert.is(changed.body.name, 'Diensthandy');
    const got = await send(spec, 'get', '/{mobileID}', { auth: owner(ctx), parameters: { mobileID: id } });
    assert.match(got.url, /\/api\/v1\/sms\/\{mobileID\}\?mobileID=/);
    assert.equal(got.body, [changed.body]);
    const removed = await send(spec, 'delete', '/mobile/{mobileID}', {
      auth: owner(ctx),
      parameters: { mobileID: id },
    });
    assert.match(removed.url, /\/mobile\/\{mobileID\}\?mobileID=/);
    assert.equal(removed.body, { status: 'deleted' });
  },
);

compat(
  'call: alarming with alarmTemplateID; disabled; phone List, Create, Update, Delete through the ' +
    'placeholder paths, Get by path',
  async (ctx) => {
    const spec = docs(ctx).call;
    if (!spec) return;
    const created = await send(spec, 'post', '/alarming', {
      auth: apiKey(ctx),
      requestBody: { alarmTemplateID: 12, gsm: '004930123456', id: 0, organizationID: ctx.a.orgId, pin: '24680' },
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    assert.is(created.body.alarmTemplateID, 12);
    assert.is(
      (
        await send(spec, 'put', '/alarming', {
          auth: apiKey(ctx),
          requestBody: { ...created.body, alarmTemplateID: 13 },
        })
      ).body.alarmTemplateID,
      13,
    );
    assert.is(
      (await send(spec, 'get', '/alarming', { auth: apiKey(ctx), parameters: { organization_id: ctx.a.orgId } }))
        .body[0].alarmTemplateID,
      13,
    );
    assert.equal(
      (
        await send(spec, 'delete', '/alarming/{configurationID}', {
          auth: apiKey(ctx),
          parameters: { configurationID: created.body.id },
        })
      ).body,
      { status: 'deleted' },
    );
    assert.equal(
      (
        await send(spec, 'put', '/disabled', {
          auth: apiKey(ctx),
          parameters: { organization_id: ctx.a.orgId },
          requestBody: { isDisabled: true },
        })
      ).body,
      { isDisabled: true },
    );
    assert.equal(
      (await send(spec, 'get', '/disabled', { auth: apiKey(ctx), parameters: { organization_id: ctx.a.orgId } })).body,
      [{ isDisabled: true }],
    );

    const phone = await send(spec, 'post', '/phone', {
      auth: apiKey(ctx),
      parameters: { organization_id: ctx.a.orgId },
      requestBody: { active: true, gsm: '004930123456', id: 0, name: 'Festnetz', ownerID: ctx.a.member.userId },
    });
    assert.is(phone.status, 200, JSON.stringify(phone.body));
    const id = phone.body.id;
    assert.equal(
      (await send(spec, 'get', '/phone', { auth: owner(ctx), parameters: { owner_id: ctx.a.member.userId } })).body,
      [phone.body],
    );
    // The document gives C9 no body; swagger-client still sends the one it is handed.
    const changed = await send(spec, 'put', '/phone/{phoneID}', {
      auth: owner(ctx),
      parameters: { phoneID: id },
      requestBody: { ...phone.body, id: undefined, active: false },
    });
    assert.match(changed.url, /\/phone\/\{phoneID\}\?phoneID=/);
    assert.is(changed.status, 200, JSON.stringify(changed.body));
    assert.is(changed.body.active, false);
    assert.equal(
      (await send(spec, 'get', '/{phoneID}', { auth: owner(ctx), parameters: { phoneID: id } })).body,
      changed.body,
    );
    assert.equal(
      (await send(spec, 'delete', '/phone/{phoneID}', { auth: owner(ctx), parameters: { phoneID: id } })).body,
      { status: 'deleted' },
    );
  },
);

compat('/openapi.json lists A1–A11, push/delivered, S1–S14 and C1–C12, each with its x-label', async (ctx) => {
  const doc = await fetch(`${ctx.svc.url}/openapi.json`).then((r) => r.json());
  const labels = Object.values(doc.paths as Record<string, Record<string, { 'x-label': string }>>).flatMap((ops) =>
    Object.values(ops).map((o) => o['x-label']),
  );
  const expected = [
    ...Array.from({ length: 11 }, (_, i) => `A${i + 1}`),
    'A11-delivered',
    ...Array.from({ length: 14 }, (_, i) => `S${i + 1}`),
    ...Array.from({ length: 12 }, (_, i) => `C${i + 1}`),
  ];
  for (const label of expected)
    assert.is(labels.filter((l) => l === label).length, 1, `${label} once in /openapi.json`);
  assert.ok(
    doc.paths['/api/v1/sms/{mobileID}'].get.parameters.some(
      (p: { name: string; in: string }) => p.name === 'mobileID' && p.in === 'query',
    ),
  );
});

compat.after(() => fakes.close());
compat.run();
