// Every list of every area beside a neighbour 100 times its size: organization A holds `small` of each
// thing (alarms, monitors, a monitor's screens, categories, journal entries, sms and call configurations,
// entities, rules, credentials, and one user's devices, mobile and phone numbers, as many as a user may
// hold); each list is timed
// alone, then again after organization B made 100 times as many of each through the API. The goal
// (BENCHMARKS.md): each at most 1.5× its time alone. T1, T5 and T13 beside 100,000 records:
// bench/neighbour-things.ts.
// Usage: npx tsx bench/neighbour-lists.ts [small=10] [runs=30]; `npm run bench` runs it too.
import { pathToFileURL } from 'node:url';
import { apiCall, benchService, median as medianOf, neighbourTable, type NeighbourRow } from './setup.js';
import { MAX_DEVICES_PER_OWNER } from '../server/areas/app/devices.js';
import { MAX_NUMBERS_PER_OWNER } from '../server/areas/channels/numbers.js';

export async function neighbourLists(
  small: number,
  runs: number,
  say: (line: string) => void = () => {},
): Promise<NeighbourRow[]> {
  const bench = await benchService();

  interface Org {
    id: number;
    token: string;
    userId: number;
    monitorId: number;
    journalId: number;
    categoryId: number;
    entityId: string;
  }

  const call = (token: string, method: string, path: string, body?: unknown) =>
    apiCall(bench.url, token, method, path, body);

  // A user holds at most MAX_NUMBERS_PER_OWNER numbers (and MAX_DEVICES_PER_OWNER devices) an
  // organization entered for him: a user's things are spread over the organization's members, that many
  // each, the first ones the measured member's (his list holds that many, beside the neighbour's).
  const owners = new Map<string, Promise<number>>();
  const ownerOf = (o: Org, i: number, per: number): Promise<number> => {
    const k = Math.floor(i / per);
    if (k === 0) return Promise.resolve(o.userId);
    let owner = owners.get(`${o.id}:${k}`);
    if (!owner) {
      owner = (async () => {
        const user = await bench.identity.createUser(`Member ${k} of ${o.id}`);
        await bench.identity.addMember(o.id, user.id, 'member');
        return user.id;
      })();
      owners.set(`${o.id}:${k}`, owner);
    }
    return owner;
  };
  const median = (fn: () => Promise<unknown>) => medianOf(runs, fn);

  async function organization(name: string): Promise<Org> {
    const org = await bench.identity.createOrganization(name);
    const { token } = await bench.identity.createApiKey(org.id, 'bench');
    const user = await bench.identity.createUser(`Member of ${name}`);
    await bench.identity.addMember(org.id, user.id, 'member');
    const monitorId = (await call(token, 'POST', '/api/v1/monitor', { name: 'Wache', organizationID: org.id })).id;
    const journalId = (await call(token, 'GET', `/api/v1/journal?organization_id=${org.id}`)).id;
    const categoryId = (
      await call(token, 'POST', '/api/v1/journal/categories', { organizationId: org.id, name: 'Lage', description: '' })
    ).id;
    const entityId = (
      await call(token, 'POST', '/api/v1/things/entities', {
        organizationID: org.id,
        name: 'Fahrzeuge',
        fields: [{ name: 'Funkrufname', type: 'text' }],
      })
    ).id;
    await call(token, 'POST', `/api/v1/journal/${journalId}/lock`);
    return { id: org.id, token, userId: user.id, monitorId, journalId, categoryId, entityId };
  }

  // How each thing is made (the i-th of an organization) and listed.
  const digits = (i: number, n: number) => String(i).padStart(n, '0');
  const kinds: Array<{
    label: string;
    serial?: boolean;
    make(o: Org, i: number): Promise<unknown>;
    list(o: Org): Promise<unknown>;
  }> = [
    // First, while the member has no device or number yet: an alarm raises no deliveries then, and it
    // is shown on the organization's one monitor (by default it would be on each of its monitors).
    {
      label: 'AL2 alarms, first page',
      make: (o, i) =>
        call(o.token, 'POST', '/api/v1/alarms', {
          organizationID: o.id,
          event: `B3 Wohnungsbrand ${i}`,
          address: 'Hauptstraße 40',
          monitorIds: [o.monitorId],
          channels: ['app'],
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/alarms?organization_id=${o.id}`),
    },
    {
      label: 'M1 monitors',
      make: (o, i) => call(o.token, 'POST', '/api/v1/monitor', { name: `Wache ${i}`, organizationID: o.id }),
      list: (o) => call(o.token, 'GET', `/api/v1/monitor?organization=${o.id}`),
    },
    {
      label: 'F4 screens of a monitor',
      async make(o, i) {
        const started = await call('', 'POST', '/api/v1/screens/pairing');
        return call(o.token, 'POST', `/api/v1/monitor/${o.monitorId}/screens`, {
          code: started.code,
          name: `Halle ${i}`,
        });
      },
      list: (o) => call(o.token, 'GET', `/api/v1/monitor/${o.monitorId}/screens`),
    },
    {
      label: 'J1 categories',
      make: (o, i) =>
        call(o.token, 'POST', '/api/v1/journal/categories', {
          organizationId: o.id,
          name: `Kategorie ${i}`,
          description: '',
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/journal/categories?organization_id=${o.id}`),
    },
    {
      label: 'J6 journal, first page',
      make: (o, i) =>
        call(o.token, 'POST', `/api/v1/journal/${o.journalId}/entries`, {
          journalId: o.journalId,
          categoryId: o.categoryId,
          text: `Eintrag ${i}`,
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/journal?organization_id=${o.id}`),
    },
    {
      label: 'S1 sms configurations',
      make: (o, i) =>
        call(o.token, 'POST', '/api/v1/sms/alarming', {
          organizationID: o.id,
          gsm: `0049176${digits(i, 8)}`,
          pin: '4711',
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/sms/alarming?organization_id=${o.id}`),
    },
    {
      label: 'C1 call configurations',
      make: (o, i) =>
        call(o.token, 'POST', '/api/v1/call/alarming', {
          organizationID: o.id,
          gsm: `0049176${digits(i, 8)}`,
          pin: '4711',
          alarmTemplateID: 1,
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/call/alarming?organization_id=${o.id}`),
    },
    {
      label: 'T1 entities',
      make: (o, i) =>
        call(o.token, 'POST', '/api/v1/things/entities', { organizationID: o.id, name: `Entität ${i}`, fields: [] }),
      list: (o) => call(o.token, 'GET', `/api/v1/things/entities?organization_id=${o.id}`),
    },
    {
      label: 'T10 rules of an entity',
      serial: true,
      // B's rules spread over entities (at most 50 per entity); A's on its own entity.
      async make(o, i) {
        if (i % 50 === 0 && i > 0)
          o.entityId = (
            await call(o.token, 'POST', '/api/v1/things/entities', {
              organizationID: o.id,
              name: `Regeln ${i}`,
              fields: [],
            })
          ).id;
        return call(o.token, 'POST', `/api/v1/things/entities/${o.entityId}/rules`, {
          name: `Regel ${i}`,
          action: 'alarm',
          triggers: ['record_created'],
          conditions: [],
          actionAlarmTemplate: { alarmMessage: 'Neu', eventName: 'Prüfen' },
        });
      },
      list: (o) => call(o.token, 'GET', `/api/v1/things/entities/${o.entityId}/rules`),
    },
    {
      label: 'E3 credentials',
      make: (o, i) =>
        call(o.token, 'PUT', `/api/v1/els-cobra/credentials/${o.id}?serviceName=dienst${i}`, {
          username: 'wache',
          password: 'geheim',
          url: 'https://fax.example.org',
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/els-cobra/credentials/${o.id}`),
    },
    {
      label: 'A1 devices of a user',
      make: async (o, i) =>
        call(o.token, 'POST', `/api/v1/app/device?organization_id=${o.id}`, {
          active: true,
          name: `Telefon ${i}`,
          os: 'android 14',
          ownerID: await ownerOf(o, i, MAX_DEVICES_PER_OWNER),
          pushToken: `token${i}`,
          pushTokenDevelopment: false,
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/app/device?owner_id=${o.userId}&organization_id=${o.id}`),
    },
    {
      label: 'S9 mobile numbers of a user',
      make: async (o, i) =>
        call(o.token, 'POST', `/api/v1/sms/mobile?organization_id=${o.id}`, {
          gsm: `0049176${digits(i, 8)}`,
          ownerID: await ownerOf(o, i, MAX_NUMBERS_PER_OWNER),
          name: `Handy ${i}`,
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/sms/mobile?owner_id=${o.userId}&organization_id=${o.id}`),
    },
    {
      label: 'C7 phone numbers of a user',
      make: async (o, i) =>
        call(o.token, 'POST', `/api/v1/call/phone?organization_id=${o.id}`, {
          gsm: `0049617${digits(i, 7)}`,
          ownerID: await ownerOf(o, i, MAX_NUMBERS_PER_OWNER),
          name: `Festnetz ${i}`,
        }),
      list: (o) => call(o.token, 'GET', `/api/v1/call/phone?owner_id=${o.userId}&organization_id=${o.id}`),
    },
  ];

  /** Makes `count` of each kind, eight requests at a time (one for rules: they fill one entity after another). */
  async function fill(o: Org, count: number): Promise<void> {
    for (const kind of kinds) {
      const at = kind.serial ? 1 : 8;
      for (let i = 0; i < count; i += at)
        await Promise.all(Array.from({ length: Math.min(at, count - i) }, (_, k) => kind.make(o, i + k)));
    }
  }

  const a = await organization('Small');
  await fill(a, small);
  const alone: number[] = [];
  for (const kind of kinds) alone.push(await median(() => kind.list(a)));

  const b = await organization('Large');
  const started = performance.now();
  await fill(b, small * 100);
  say(`lists: neighbour B's ${small * 100} of each made in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const rows: NeighbourRow[] = [];
  for (const [k, kind] of kinds.entries())
    rows.push({ label: kind.label, alone: alone[k], beside: await median(() => kind.list(a)) });
  await bench.close();
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [small, runs] = [Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 30)];
  const rows = await neighbourLists(small, runs, console.log);
  console.log(
    `Organization A: ${small} of each; neighbour B: ${small * 100} of each. Median of ${runs} sequential calls (ms)`,
  );
  console.log(neighbourTable(rows));
}
