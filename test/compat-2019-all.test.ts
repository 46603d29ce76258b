// Every operation of the five 2019 documents (docs/reference/groupalarm-2019), built by swagger-client
// from the document and sent exactly as it builds it — a body the document does not describe goes out
// without a JSON content type — against one service with real data, so that each call succeeds. The
// operations are enumerated from the documents: one without a step here fails the test.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerClient from 'swagger-client';
import * as assert from 'uvu/assert';
import { channelSuite, type Ctx } from './helpers/channels.js';
import { pem, TEST_KEY } from './helpers/els-cobra.js';
import { startPushFakes } from './helpers/push-fakes.js';

const referenceDir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'reference',
  'groupalarm-2019',
);
const AREAS = ['monitor', 'app', 'sms', 'call', 'els-cobra'] as const;
type Area = (typeof AREAS)[number];
type Spec = { servers: Array<{ url: string }>; paths: Record<string, Record<string, { operationId?: string }>> };

const documents = Object.fromEntries(
  AREAS.map((area) => [
    area,
    JSON.parse(fs.readFileSync(path.join(referenceDir, `${area}.openapi.json`), 'utf8')) as Spec,
  ]),
) as Record<Area, Spec>;
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Every operation of a document as "METHOD route". */
function operationsOf(spec: Spec): string[] {
  return Object.entries(spec.paths).flatMap(([route, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.has(m))
      .map((m) => `${m.toUpperCase()} ${route}`),
  );
}

/** What the steps share: the IDs and tokens earlier steps created. */
type State = Record<string, any>;

interface Step {
  area: Area;
  /** "METHOD route" as in the document. */
  op: string;
  as: 'key' | 'owner' | 'admin';
  parameters?: (s: State, ctx: Ctx) => Record<string, unknown>;
  body?: (s: State, ctx: Ctx) => unknown;
  status?: number;
  then?: (body: any, s: State) => void;
}

const phone = (ctx: Ctx) => ({
  active: true,
  gsm: '004930123456',
  id: 0,
  name: 'Festnetz',
  ownerID: ctx.a.member.userId,
});
const org = (_s: State, ctx: Ctx) => ({ organizationID: ctx.a.orgId });

const STEPS: Step[] = [
  // monitor (M1–M10)
  {
    area: 'monitor',
    op: 'POST /',
    as: 'key',
    body: (_s, ctx) => ({ name: 'Wache Nord', organizationID: ctx.a.orgId }),
    status: 201,
    then: (b, s) => (s.monitor = b.id),
  },
  {
    area: 'monitor',
    op: 'GET /',
    as: 'key',
    parameters: (_s, ctx) => ({ organization: ctx.a.orgId }),
    then: (b, s) => assert.ok(b.some((m: { id: number }) => m.id === s.monitor)),
  },
  {
    area: 'monitor',
    op: 'PUT /',
    as: 'key',
    body: (s, ctx) => ({ id: s.monitor, name: 'Wache Nord 2', organizationID: ctx.a.orgId }),
    then: (b) => assert.is(b.name, 'Wache Nord 2'),
  },
  { area: 'monitor', op: 'GET /{monitor_id}', as: 'key', parameters: (s) => ({ monitor_id: s.monitor }) },
  {
    area: 'monitor',
    op: 'POST /{monitor_id}/data/alarming',
    as: 'key',
    parameters: (s) => ({ monitor_id: s.monitor }),
    body: () => ({ eventId: 1, event: 'Brand', positiveResponses: 1 }),
  },
  {
    area: 'monitor',
    op: 'PATCH /{monitor_id}/data/alarming',
    as: 'key',
    parameters: (s) => ({ monitor_id: s.monitor }),
    body: () => ({ positiveResponses: 3 }),
  },
  {
    area: 'monitor',
    op: 'POST /{monitor_id}/data/meta',
    as: 'key',
    parameters: (s) => ({ monitor_id: s.monitor }),
    body: () => ({ latestAlarms: ['Brand'] }),
  },
  {
    area: 'monitor',
    op: 'PATCH /{monitor_id}/data/meta',
    as: 'key',
    parameters: (s) => ({ monitor_id: s.monitor }),
    body: () => ({ pagers: { activePager: 4 } }),
  },
  {
    area: 'monitor',
    op: 'GET /{monitor_id}/data',
    as: 'key',
    parameters: (s) => ({ monitor_id: s.monitor }),
    then: (b) => assert.equal([b.alarmData.positiveResponses, b.metaData.pagers.activePager], [3, 4]),
  },
  { area: 'monitor', op: 'DELETE /{monitor_id}', as: 'key', parameters: (s) => ({ monitor_id: s.monitor }) },
  // app (A1–A11 of the document)
  {
    area: 'app',
    op: 'POST /device',
    as: 'owner',
    body: (_s, ctx) => ({
      name: 'iPhone',
      os: 'iOS 17.4',
      pushToken: '9a'.repeat(32),
      pushTokenDevelopment: false,
      active: true,
      ownerID: ctx.a.member.userId,
    }),
    then: (b, s) => (s.device = b),
  },
  {
    area: 'app',
    op: 'GET /device',
    as: 'key',
    parameters: (_s, ctx) => ({ owner_id: ctx.a.member.userId, organization_id: ctx.a.orgId }),
    then: (b, s) => assert.ok(b.some((d: { id: number }) => d.id === s.device.id)),
  },
  { area: 'app', op: 'GET /device/{deviceID}', as: 'owner', parameters: (s) => ({ deviceID: s.device.id }) },
  {
    area: 'app',
    op: 'PUT /device/{deviceID}',
    as: 'owner',
    parameters: (s) => ({ deviceID: s.device.id }),
    body: (s) => ({ ...s.device, active: false }),
    then: (b) => assert.is(b.active, false),
  },
  {
    area: 'app',
    op: 'PUT /disabled',
    as: 'key',
    parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }),
    body: () => ({ isDisabled: false }),
  },
  { area: 'app', op: 'GET /disabled', as: 'key', parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }) },
  { area: 'app', op: 'POST /push/delivered/{token}', as: 'owner', parameters: (s) => ({ token: s.confirmToken }) },
  // The document gives answered no body; the service wants the distance and duration (docs/api.md, "The app, sms and
  // call areas").
  {
    area: 'app',
    op: 'POST /push/answered/{token}/{answer}',
    as: 'owner',
    parameters: (s) => ({ token: s.confirmToken, answer: 'yes' }),
    body: () => ({ distance: 3, duration: 6 }),
  },
  { area: 'app', op: 'DELETE /device/{deviceID}', as: 'owner', parameters: (s) => ({ deviceID: s.device.id }) },
  // sms (S1–S14 of the document)
  {
    area: 'sms',
    op: 'POST /alarming',
    as: 'key',
    body: (_s, ctx) => ({ id: 0, gsm: '004917612345678', organizationID: ctx.a.orgId, pin: '1234' }),
    then: (b, s) => (s.smsConfig = b),
  },
  {
    area: 'sms',
    op: 'PUT /alarming',
    as: 'key',
    body: (s) => ({ ...s.smsConfig, pin: '5678' }),
    then: (b) => assert.is(b.pin, '5678'),
  },
  { area: 'sms', op: 'GET /alarming', as: 'key', parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }) },
  {
    area: 'sms',
    op: 'DELETE /alarming/{configurationID}',
    as: 'key',
    parameters: (s) => ({ configurationID: s.smsConfig.id }),
  },
  {
    area: 'sms',
    op: 'PUT /disabled',
    as: 'key',
    parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }),
    body: () => ({ isDisabled: true }),
  },
  {
    area: 'sms',
    op: 'GET /disabled',
    as: 'key',
    parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }),
    then: (b) => assert.equal(b, [{ isDisabled: true }]),
  },
  {
    area: 'sms',
    op: 'POST /mobile',
    as: 'owner',
    body: (_s, ctx) => ({ active: true, gsm: '004917612345678', id: 0, name: 'Handy', ownerID: ctx.a.member.userId }),
    then: (b, s) => (s.mobile = b),
  },
  { area: 'sms', op: 'GET /mobile', as: 'owner', parameters: (_s, ctx) => ({ owner_id: ctx.a.member.userId }) },
  {
    area: 'sms',
    op: 'PUT /mobile',
    as: 'owner',
    body: (s) => ({ ...s.mobile, name: 'Diensthandy' }),
    then: (b) => assert.is(b.name, 'Diensthandy'),
  },
  { area: 'sms', op: 'GET /{mobileID}', as: 'owner', parameters: (s) => ({ mobileID: s.mobile.id }) },
  { area: 'sms', op: 'DELETE /mobile/{mobileID}', as: 'owner', parameters: (s) => ({ mobileID: s.mobile.id }) },
  // call (C1–C12 of the document)
  {
    area: 'call',
    op: 'POST /alarming',
    as: 'key',
    body: (_s, ctx) => ({ alarmTemplateID: 12, gsm: '004930123456', id: 0, organizationID: ctx.a.orgId, pin: '24680' }),
    then: (b, s) => (s.callConfig = b),
  },
  {
    area: 'call',
    op: 'PUT /alarming',
    as: 'key',
    body: (s) => ({ ...s.callConfig, alarmTemplateID: 13 }),
    then: (b) => assert.is(b.alarmTemplateID, 13),
  },
  { area: 'call', op: 'GET /alarming', as: 'key', parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }) },
  {
    area: 'call',
    op: 'DELETE /alarming/{configurationID}',
    as: 'key',
    parameters: (s) => ({ configurationID: s.callConfig.id }),
  },
  {
    area: 'call',
    op: 'PUT /disabled',
    as: 'key',
    parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }),
    body: () => ({ isDisabled: false }),
  },
  { area: 'call', op: 'GET /disabled', as: 'key', parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }) },
  {
    area: 'call',
    op: 'POST /phone',
    as: 'key',
    parameters: (_s, ctx) => ({ organization_id: ctx.a.orgId }),
    body: (_s, ctx) => phone(ctx),
    then: (b, s) => (s.phone = b),
  },
  { area: 'call', op: 'GET /phone', as: 'owner', parameters: (_s, ctx) => ({ owner_id: ctx.a.member.userId }) },
  // The document gives this PUT no body: swagger-client sends the one it is handed without a JSON content type.
  {
    area: 'call',
    op: 'PUT /phone/{phoneID}',
    as: 'owner',
    parameters: (s) => ({ phoneID: s.phone.id }),
    body: (s) => ({ ...s.phone, id: undefined, active: false }),
    then: (b) => assert.is(b.active, false),
  },
  { area: 'call', op: 'GET /{phoneID}', as: 'owner', parameters: (s) => ({ phoneID: s.phone.id }) },
  { area: 'call', op: 'DELETE /phone/{phoneID}', as: 'owner', parameters: (s) => ({ phoneID: s.phone.id }) },
  // els-cobra (E1–E7 and their GET/DELETE)
  {
    area: 'els-cobra',
    op: 'PUT /certificate/{organizationID}',
    as: 'key',
    parameters: org,
    body: (_s, ctx) => ({
      certificate: pem().leaf,
      caChain: pem().caChain,
      privateKey: pem().leafKey,
      organizationId: ctx.a.orgId,
    }),
  },
  { area: 'els-cobra', op: 'GET /certificate/{organizationID}', as: 'admin', parameters: org },
  { area: 'els-cobra', op: 'DELETE /certificate/{organizationID}', as: 'key', parameters: org },
  {
    area: 'els-cobra',
    op: 'PUT /credentials/{organizationID}',
    as: 'key',
    parameters: (_s, ctx) => ({ organizationID: ctx.a.orgId, serviceName: 'cobra alarm' }),
    body: (_s, ctx) => ({
      organizationId: ctx.a.orgId,
      serviceName: 'cobra alarm',
      username: 'ils',
      password: 'geheim',
      url: 'https://cobra.example/api',
    }),
  },
  {
    area: 'els-cobra',
    op: 'GET /credentials/{organizationID}',
    as: 'key',
    parameters: (_s, ctx) => ({ organizationID: ctx.a.orgId, serviceName: 'cobra alarm' }),
  },
  {
    area: 'els-cobra',
    op: 'DELETE /credentials/{organizationID}',
    as: 'key',
    parameters: (_s, ctx) => ({ organizationID: ctx.a.orgId, serviceName: 'cobra alarm' }),
  },
  {
    area: 'els-cobra',
    op: 'PUT /keyword/{organizationID}',
    as: 'key',
    parameters: org,
    body: (_s, ctx) => ({
      organizationId: ctx.a.orgId,
      keywordScenarioList: [{ keyword_1: 'B2', keyword_2: '', type_1: '', type_2: '', priority: 0, scenarioIds: [3] }],
    }),
  },
  { area: 'els-cobra', op: 'GET /keyword/{organizationID}', as: 'key', parameters: org },
  { area: 'els-cobra', op: 'DELETE /keyword/{organizationID}', as: 'key', parameters: org },
  {
    area: 'els-cobra',
    op: 'PUT /login/{organizationID}',
    as: 'key',
    parameters: org,
    body: (_s, ctx) => ({ organizationId: ctx.a.orgId, url: 'https://cobra.leitstelle.example/login' }),
  },
  { area: 'els-cobra', op: 'GET /login/{organizationID}', as: 'key', parameters: org },
  { area: 'els-cobra', op: 'DELETE /login/{organizationID}', as: 'key', parameters: org },
];

const fakes = await startPushFakes();
const all = channelSuite('every operation of the five 2019 documents through swagger-client', async () => ({
  ...fakes.env,
  SECRETS_KEY: TEST_KEY,
}));

all('every operation of each document has a step here, and no step names an operation the document lacks', () => {
  for (const area of AREAS) {
    const documented = operationsOf(documents[area]).sort();
    const stepped = STEPS.filter((s) => s.area === area)
      .map((s) => s.op)
      .sort();
    assert.equal(stepped, documented, `${area}: the steps cover exactly the document's operations`);
  }
});

all('each step, built and sent as swagger-client does, succeeds', async (ctx) => {
  // A confirmation token for push/delivered and push/answered comes from a real test push (A5 is not in the 2019
  // document).
  const device = await fetch(`${ctx.svc.url}/api/v1/app/device`, {
    method: 'POST',
    headers: { 'Personal-Access-Token': ctx.a.member.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'Push',
      os: 'iOS 17.4',
      pushToken: '8b'.repeat(32),
      pushTokenDevelopment: false,
      active: true,
      ownerID: ctx.a.member.userId,
    }),
  }).then((r) => r.json());
  const pushed = await fetch(`${ctx.svc.url}/api/v1/app/device/${device.id}/test-push`, {
    method: 'POST',
    headers: { 'Personal-Access-Token': ctx.a.member.token },
  }).then((r) => r.json());
  const state: State = { confirmToken: pushed.confirmToken };
  assert.type(state.confirmToken, 'string', JSON.stringify(pushed));
  const credential = {
    key: { 'API-TOKEN': ctx.a.apiKey },
    owner: { 'Personal-Access-Token': ctx.a.member.token },
    admin: { 'Personal-Access-Token': ctx.a.admin.token },
  };
  const contentTypes = new Set<string>();
  for (const step of STEPS) {
    const spec = documents[step.area];
    const [method, route] = step.op.split(' ');
    const pointed = { ...spec, servers: [{ url: ctx.svc.url + new URL(spec.servers[0].url).pathname }] };
    const body = step.body?.(state, ctx);
    const req = SwaggerClient.buildRequest({
      spec: pointed,
      operationId: `${method.toLowerCase()}-${route}`,
      parameters: step.parameters?.(state, ctx) ?? {},
      requestBody: body,
    });
    const payload =
      req.body === undefined || body === undefined
        ? undefined
        : typeof req.body === 'string'
          ? req.body
          : JSON.stringify(req.body);
    const res = await fetch(req.url, {
      method: req.method,
      headers: { ...req.headers, ...credential[step.as] },
      body: payload,
    });
    const text = await res.text();
    assert.is(res.status, step.status ?? 200, `${step.area} ${step.op} (${req.method} ${req.url}): ${text}`);
    if (payload !== undefined) contentTypes.add(String(req.headers['Content-Type'] ?? 'none (fetch: text/plain)'));
    step.then?.(text ? JSON.parse(text) : undefined, state);
  }
  assert.ok(
    contentTypes.has('none (fetch: text/plain)'),
    'at least one body went out as swagger-client sends an undescribed body',
  );
});

all.after(() => fakes.close());
all.run();
