// A world for the reliability suite (RELIABILITY.md): an organization holding one of every resource of
// every area, made through the REST API as staff would make it, and what an operation of /openapi.json
// needs to address them (path and query values, bodies from the document's own examples).
import * as assert from 'uvu/assert';
import mongoose from 'mongoose';
import { client, request, type Credential } from './http.js';
import { pem } from './els-cobra.js';
import { createOrg, type OrgFixture, type TestService } from './service.js';

/** An operation of /openapi.json, as the suite drives it. */
export interface DocOperation {
  label: string;
  method: string;
  /** OpenAPI path, e.g. /api/v1/monitor/{monitor_id}. */
  path: string;
  params: Array<{ in: 'path' | 'query' | 'header'; name: string; required: boolean }>;
  /** The request body's example from the document, if the operation takes a body. */
  example?: unknown;
  /** Reachable without an organization credential (its own token, a gateway token, or nothing). */
  public: boolean;
}

/** Every operation of the service's /openapi.json. */
export async function documentedOperations(svc: TestService): Promise<DocOperation[]> {
  const doc = (await request(svc.url, 'GET', '/openapi.json')).body;
  const ops: DocOperation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      let example: unknown;
      if (op.requestBody) {
        const media: any = Object.values<any>(op.requestBody.content)[0];
        example =
          media.example ?? doc.components.schemas[media.schema.$ref?.replace('#/components/schemas/', '')]?.example;
      }
      const params = (op.parameters ?? []).map((p: any) => ({ in: p.in, name: p.name, required: Boolean(p.required) }));
      ops.push({
        label: op['x-label'],
        method: method.toUpperCase(),
        path,
        params,
        example,
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return ops;
}

/** One organization with one of every resource; every name it was given carries `marker`. */
export interface World {
  org: OrgFixture;
  marker: string;
  monitor: number;
  /** A second monitor, with a screen of its own. */
  otherMonitor: number;
  screen: number;
  screenToken: string;
  otherScreenToken: string;
  device: number;
  mobile: number;
  phone: number;
  smsConfiguration: number;
  callConfiguration: number;
  category: number;
  template: number;
  /** A document input (IP1), with one document received (IP4). */
  input: number;
  journal: number;
  entry: number;
  entity: string;
  fieldIds: string[];
  record: string;
  rule: string;
  alarm: number;
  /** The ELS cobra certificate and key the organization holds (E2). */
  certificate: { certificate: string; privateKey: string };
}

async function ok(res: Promise<{ status: number; body: any }>, what: string): Promise<any> {
  const reply = await res;
  assert.ok(reply.status >= 200 && reply.status < 300, `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

let events = 7000;

/** Pairs a new screen with `monitor` the way a station screen does (F1, F3, F2) and returns its ID and token. */
export async function pairScreen(
  svc: TestService,
  auth: Credential,
  monitor: number,
  name: string,
): Promise<{ id: number; token: string }> {
  const started = await ok(request(svc.url, 'POST', '/api/v1/screens/pairing'), 'F1');
  const screen = await ok(
    client(svc.url, auth).post(`/api/v1/monitor/${monitor}/screens`, { code: started.code, name }),
    'F3',
  );
  const polled = await ok(
    request(svc.url, 'GET', `/api/v1/screens/pairing/${started.pairingId}`, {
      headers: { 'Pairing-Secret': started.pollSecret },
    }),
    'F2',
  );
  assert.type(polled.token, 'string', `F2 answered ${JSON.stringify(polled)}`);
  return { id: screen.id, token: polled.token };
}

/** Builds a world in a new organization; the service needs SECRETS_KEY (ELS cobra secrets). */
export async function buildWorld(svc: TestService, marker: string): Promise<World> {
  const org = await createOrg(svc, `${marker} Feuerwehr`);
  const api = client(svc.url, { apiKey: org.apiKey });
  const admin = client(svc.url, { pat: org.admin.token });
  const o = org.orgId;
  const monitor = (await ok(api.post('/api/v1/monitor', { name: `${marker} Wache`, organizationID: o }), 'M3')).id;
  const otherMonitor = (await ok(api.post('/api/v1/monitor', { name: `${marker} Lehrsaal`, organizationID: o }), 'M3'))
    .id;
  await ok(
    api.post(`/api/v1/monitor/${monitor}/data/alarming`, {
      event: `${marker} Brand`,
      eventId: 1,
      message: `${marker} Nachricht`,
    }),
    'M7',
  );
  const screen = await pairScreen(svc, { apiKey: org.apiKey }, monitor, `${marker} Halle`);
  const other = await pairScreen(svc, { apiKey: org.apiKey }, otherMonitor, `${marker} Lehrsaal links`);
  const device = (
    await ok(
      admin.post(`/api/v1/app/device?organization_id=${o}`, {
        active: true,
        name: `${marker} Pixel`,
        os: 'android 14',
        ownerID: org.member.userId,
        pushToken: `${marker}-push-token`,
        pushTokenDevelopment: false,
      }),
      'A2',
    )
  ).id;
  const mobile = (
    await ok(
      admin.post(`/api/v1/sms/mobile?organization_id=${o}`, {
        gsm: '004917612345678',
        ownerID: org.member.userId,
        name: `${marker} Diensthandy`,
      }),
      'S11',
    )
  ).id;
  const phone = (
    await ok(
      admin.post(`/api/v1/call/phone?organization_id=${o}`, {
        gsm: '00496181123456',
        ownerID: org.member.userId,
        name: `${marker} Festnetz`,
      }),
      'C8',
    )
  ).id;
  const smsConfiguration = (
    await ok(
      api.post('/api/v1/sms/alarming', { gsm: `0049170${String(o).padStart(7, '0')}`, organizationID: o, pin: '4711' }),
      'S3',
    )
  ).id;
  const callConfiguration = (
    await ok(
      api.post('/api/v1/call/alarming', {
        gsm: `0049171${String(o).padStart(7, '0')}`,
        organizationID: o,
        pin: '112233',
        alarmTemplateID: 12,
      }),
      'C3',
    )
  ).id;
  const category = (
    await ok(
      api.post('/api/v1/journal/categories', {
        name: `${marker} Lage`,
        description: `${marker} Lagemeldungen`,
        organizationId: o,
      }),
      'J2',
    )
  ).id;
  const template = (
    await ok(
      api.post('/api/v1/alarm-templates', { organizationID: o, name: `${marker} Vollalarm`, event: `${marker} Alarm` }),
      'TP1',
    )
  ).id;
  const input = (
    await ok(
      api.post('/api/v1/inputs', {
        organizationID: o,
        name: `${marker} Alarmfax`,
        kind: 'document',
        settings: {},
        profile: { fields: { event: '^Stichwort:\\s*(.+)$' } },
        channels: ['app'],
        active: true,
      }),
      'IP1',
    )
  ).id;
  await ok(api.post(`/api/v1/inputs/${input}/try`, { text: `Stichwort: ${marker} Probe` }), 'IP5');
  const journal = (await ok(api.get(`/api/v1/journal?organization_id=${o}&event_id=${++events}`), 'J6')).id;
  await ok(admin.post(`/api/v1/journal/${journal}/lock`), 'J7');
  const entry = (
    await ok(
      admin.post(`/api/v1/journal/${journal}/entries`, {
        journalId: journal,
        categoryId: category,
        text: `${marker} Eintrag`,
      }),
      'J9',
    )
  ).id;
  const ops = await documentedOperations(svc);
  const example = (label: string) => ops.find((op) => op.label === label)!.example as Record<string, unknown>;
  // T2's example: the fields the other things examples' field IDs (c1d2e3f4-…491 to …495) refer to, in order.
  const entityBody = {
    icon: example('T2').icon,
    fields: example('T2').fields,
    name: `${marker} Hydranten`,
    description: `${marker} Hydranten der Wache`,
    organizationID: o,
  };
  const created = await ok(api.post('/api/v1/things/entities', entityBody), 'T2');
  const fieldIds: string[] = created.fields.map((f: { id: string }) => f.id);
  const record = (
    await ok(
      api.post(`/api/v1/things/entities/${created.id}/records`, {
        values: [
          { fieldID: fieldIds[0], value: 'H 80' },
          { fieldID: fieldIds[1], value: `${marker} Hauptstraße 38` },
        ],
      }),
      'T6',
    )
  ).id;
  const ruleBody = { ...withFieldIds(example('T11'), fieldIds), name: `${marker} Hydrant defekt` };
  const rule = (await ok(api.post(`/api/v1/things/entities/${created.id}/rules`, ruleBody), 'T11')).id;
  const alarm = (
    await ok(
      api.post('/api/v1/alarms', {
        organizationID: o,
        event: `${marker} B3 Wohnungsbrand`,
        message: `${marker} Rauch`,
      }),
      'AL1',
    )
  ).id;
  const certificate = pem();
  await ok(
    api.put(`/api/v1/els-cobra/certificate/${o}`, {
      certificate: certificate.certificate,
      privateKey: certificate.privateKey,
      organizationId: o,
    }),
    'E2',
  );
  await ok(
    api.put(`/api/v1/els-cobra/credentials/${o}?serviceName=cobra`, {
      serviceName: 'cobra',
      username: `${marker}-user`,
      password: `${marker}-password`,
      url: 'https://els.example/api',
      organizationId: o,
    }),
    'E4',
  );
  await ok(
    api.put(`/api/v1/els-cobra/keyword/${o}`, {
      keywordScenarioList: [{ keyword_1: 'B3', keyword_2: `${marker} Brand`, priority: 1, scenarioIds: [12] }],
      organizationId: o,
    }),
    'E6',
  );
  await ok(api.put(`/api/v1/els-cobra/login/${o}`, { url: 'https://els.example/login', organizationId: o }), 'E7');
  return {
    org,
    marker,
    monitor,
    otherMonitor,
    screen: screen.id,
    screenToken: screen.token,
    otherScreenToken: other.token,
    device,
    mobile,
    phone,
    smsConfiguration,
    callConfiguration,
    category,
    template,
    input,
    journal,
    entry,
    entity: created.id,
    fieldIds,
    record,
    rule,
    alarm,
    certificate: { certificate: certificate.certificate, privateKey: certificate.privateKey },
  };
}

const EXAMPLE_FIELD = (i: number) => `c1d2e3f4-0a1b-4c2d-8e3f-40516273849${i + 1}`;

/** `value` with the document examples' field IDs replaced by the world entity's. */
function withFieldIds<T>(value: T, fieldIds: string[]): T {
  let text = JSON.stringify(value);
  for (let i = 0; i < fieldIds.length; i++) text = text.split(EXAMPLE_FIELD(i)).join(fieldIds[i]);
  return JSON.parse(text);
}

/** The world's value for a path or query parameter of `op`, by the parameter's name and the path. */
export function parameterValue(op: DocOperation, name: string, w: World): string | undefined {
  const path = op.path;
  switch (name) {
    case 'monitor_id':
      return String(w.monitor);
    case 'screen_id':
      return String(w.screen);
    case 'deviceID':
      return String(w.device);
    case 'mobileID':
      return String(w.mobile);
    case 'phoneID':
      return String(w.phone);
    case 'configurationID':
      return String(path.includes('/sms/') ? w.smsConfiguration : w.callConfiguration);
    case 'categoryID':
      return String(w.category);
    case 'journalID':
      return String(w.journal);
    case 'entryID':
      return String(w.entry);
    case 'uuid':
      return path.startsWith('/api/v1/things/records') ? w.record : w.entity;
    case 'ruleUUID':
      return w.rule;
    case 'alarmId':
      return String(w.alarm);
    case 'templateId':
      return String(w.template);
    case 'inputId':
      return String(w.input);
    case 'keyId':
      return String(w.org.apiKeyId);
    case 'organization':
    case 'organization_id':
    case 'organizationID':
    case 'organizationId':
      return String(w.org.orgId);
    case 'owner_id':
    case 'user_id':
    case 'userId':
      return String(w.org.member.userId);
    case 'format':
      return 'csv';
    case 'serviceName':
      return 'cobra';
    case 'pairingId':
      return 'AAAAAAAAAAAAAAAAAAAAAA';
    case 'token':
      return 'not-a-confirmation-token';
    case 'answer':
      return 'yes';
    default:
      return undefined;
  }
}

/** The path of `op` with every path parameter from the world, and its query with every parameter the world knows. */
export function target(op: DocOperation, w: World, override: Record<string, string> = {}): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(override[name] ?? parameterValue(op, name, w) ?? '1'),
  );
  const query = op.params
    .filter((p) => p.in === 'query')
    .map((p) => [p.name, override[p.name] ?? parameterValue(op, p.name, w)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined);
  return query.length ? `${path}?${query.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}` : path;
}

/**
 * The document's example body of `op`, addressed to the world's resources (its organization, owner, journal, fields).
 */
export function exampleBody(op: DocOperation, w: World): unknown {
  if (op.example === undefined) return undefined;
  const ids: Record<string, unknown> = {
    organizationID: w.org.orgId,
    organizationId: w.org.orgId,
    ownerID: w.org.member.userId,
    journalId: w.journal,
    categoryId: w.category,
    alarmID: w.alarm,
    deviceID: w.device,
  };
  const body = withFieldIds(structuredClone(op.example), w.fieldIds) as Record<string, unknown>;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(ids)) if (key in body) body[key] = value;
    if ('id' in body) {
      const id = { M2: w.monitor, A4: w.device, S2: w.smsConfiguration, S10: w.mobile, C2: w.callConfiguration }[
        op.label
      ];
      if (id !== undefined) body.id = id;
    }
  }
  // The document's certificate is an abbreviated sample, and E4's service is the query's.
  if (op.label === 'E2') Object.assign(body, w.certificate, { caChain: undefined });
  if (op.label === 'E4') body.serviceName = 'cobra';
  return body;
}

// Collections whose documents change without any request: process heartbeats, claims with expiry; when
// a credential was last used (bookkeeping of every request, refused or not); an input's status (an
// e-mail input's watcher notes how the mailbox answers, or does not).
const VOLATILE = new Set(['hub_processes', 'token_uses', 'input_status']);

/** Every document of the database, by collection, as canonical Extended JSON lines (sorted). */
export async function dumpDatabase(svc: TestService): Promise<Map<string, string[]>> {
  const db = svc.db.conn.db!;
  const names = (await db.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((n) => !VOLATILE.has(n) && !n.startsWith('system.'))
    .sort();
  const dump = new Map<string, string[]>();
  await Promise.all(
    names.map(async (name) => {
      const now = Date.now();
      const docs = (await db.collection(name).find({}).toArray()).filter(
        // An expired pairing code is removed by the scheduler's sweep, whatever a request does.
        (d) => name !== 'screen_pairings' || !(d.expiresAt instanceof Date && d.expiresAt.getTime() <= now),
      );
      for (const d of docs) {
        // When a credential was last used is bookkeeping of every request, refused or not.
        delete d.lastUsedAt;
        // An e-mail input's lastError is written by its watcher as the mailbox answers (or does not).
        if (name === 'inputs') delete d.lastError;
      }
      dump.set(name, docs.map((d) => mongoose.mongo.BSON.EJSON.stringify(d, { relaxed: false })).sort());
    }),
  );
  return dump;
}

/** What differs between two dumps: collections and a few documents, for a failure message. */
export function dumpDifference(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = new Set(before.get(name) ?? []);
    const b = new Set(after.get(name) ?? []);
    const gone = [...a].filter((d) => !b.has(d));
    const added = [...b].filter((d) => !a.has(d));
    if (gone.length || added.length)
      found.push(
        `${name}: -${gone.length} +${added.length} ${[...gone.map((d) => `- ${d.slice(0, 300)}`), ...added.map((d) => `+ ${d.slice(0, 300)}`)].slice(0, 4).join(' ')}`,
      );
  }
  return found;
}

const same = (a: Map<string, string[]>, b: Map<string, string[]>) => dumpDifference(a, b).length === 0;

/**
 * A dump once the service has settled: after an accepted write, work it started in the background (an
 * alarm's deliveries, its wall) goes on for a moment; two dumps `quietMs` apart that agree (at most
 * `timeoutMs` of trying).
 */
export async function settledDump(svc: TestService, quietMs = 250, timeoutMs = 20_000): Promise<Map<string, string[]>> {
  const deadline = Date.now() + timeoutMs;
  let last = await dumpDatabase(svc);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const next = await dumpDatabase(svc);
    if (same(last, next) || Date.now() > deadline) return next;
    last = next;
  }
}

/**
 * A browser session of `userId`, one of `org`'s people, signed in as the console does it: an invitation
 * to sign in again (P1 with `userId`, by the organization's API key) joined from the service's own page
 * (P2 with `origin`, its public origin). Answers the Cookie header to send; `headers` go with the join
 * (an X-Forwarded-For address when the service trusts a proxy).
 */
export async function signInSession(
  svc: TestService,
  org: OrgFixture,
  userId: number,
  origin: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const invitation = await ok(
    client(svc.url, { apiKey: org.apiKey }).post('/api/v1/invitations', {
      organizationID: org.orgId,
      name: 'Signed in again',
      role: 'member',
      userId,
    }),
    'P1',
  );
  const joined = await request(svc.url, 'POST', '/api/v1/join', {
    body: { code: invitation.code },
    headers: { Origin: origin, ...headers },
  });
  const cookie = /alarmhub_session=([^;]+)/.exec(joined.headers.get('set-cookie') ?? '');
  assert.ok(joined.status === 201 && cookie, `P2: ${joined.status} ${JSON.stringify(joined.body)}`);
  return `alarmhub_session=${cookie![1]}`;
}
