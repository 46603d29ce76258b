// One document, two writers: on the embedded engine an update is read-modify-write without a lock, so
// two updates of one document at once can lose either (docs/storage.md "Rules for a model"). Each case
// here had two such writers: an input's notes and IP3, an alarm's end and an incident's merges, two
// documents following an ended incident, two processes taking over one mail, F5 and F2's poll.
import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { suite } from './helpers/suite.js';
import { client, request } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';
import { createDocumentInput, FAX_PROFILE } from './helpers/inputs.js';
import { claimMail } from '../server/areas/inputs/imap.js';
import { inputModels } from '../server/areas/inputs/models.js';
import { identityModels } from '../server/identity/models.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
}

const s = suite<Ctx>('one document, two writers', {} as Ctx);

s.before(async (ctx) => {
  ctx.svc = await startTestService({ RATE_LIMIT_PER_SECOND: '0' }, { monitorCommands: true });
  ctx.org = await createOrg(ctx.svc);
});
s.after(async (ctx) => {
  await ctx.svc.close();
});

let n = 0;
function documentInput(ctx: Ctx, name = `Fax ${++n}`): Promise<number> {
  return createDocumentInput(ctx.svc, ctx.org, { name });
}

/** IP4 with a text; the document's outcome as IP6 lists it. */
async function send(ctx: Ctx, inputId: number, lines: Record<string, string>) {
  const res = await fetch(`${ctx.svc.url}/api/v1/inputs/${inputId}/documents`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'API-TOKEN': ctx.org.apiKey },
    body: Object.entries(lines)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  });
  const body = await res.json();
  assert.is(res.status, 202, JSON.stringify(body));
  const listed = await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/inputs/${inputId}/documents`);
  const doc = listed.body.find((d: { id: string }) => d.id === body.documentId);
  return doc as { outcome: string; alarmId: number | null };
}

const alarm = async (ctx: Ctx, id: number) =>
  (await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).get(`/api/v1/alarms/${id}`)).body;

/** Counts the writes the driver sends to a collection while `run` runs. */
async function writesTo(ctx: Ctx, collection: string, run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const driver = ctx.svc.db.conn.getClient();
  const watch = (event: { commandName: string; command: Record<string, unknown> }) => {
    if (['update', 'findAndModify'].includes(event.commandName) && event.command[event.commandName] === collection)
      seen.push(event.commandName);
  };
  driver.on('commandStarted', watch);
  try {
    await run();
  } finally {
    driver.off('commandStarted', watch);
  }
  return seen;
}

s(
  "IP3's changes land whatever the input notes at the same moment: its status is written apart from it",
  async (ctx) => {
    const id = await documentInput(ctx, 'Leitstelle');
    const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
    const rounds = 8;
    const writes = await writesTo(ctx, 'inputs', async () => {
      for (let i = 0; i < rounds; i++) {
        const [put] = await Promise.all([
          api.put(`/api/v1/inputs/${id}`, {
            organizationID: ctx.org.orgId,
            name: `Leitstelle ${i}`,
            kind: 'document',
            settings: {},
            profile: FAX_PROFILE,
            channels: ['app'],
            active: i % 2 === 0,
          }),
          // Nothing to raise from: each is noted (ignored), with its reason.
          ...Array.from({ length: 3 }, () => send(ctx, id, { Hinweis: `Runde ${i}` })),
        ]);
        assert.is(put.status, 200, JSON.stringify(put.body));
      }
    });
    assert.equal(writes, Array(rounds).fill('findAndModify'), 'only IP3 wrote the input');
    const shown = (await api.get(`/api/v1/inputs/${id}`)).body;
    assert.equal([shown.name, shown.active], [`Leitstelle ${rounds - 1}`, (rounds - 1) % 2 === 0]);
    assert.is(shown.lastError, null);
    assert.ok(Date.now() - Date.parse(shown.lastReceivedAt) < 120_000, shown.lastReceivedAt);
    // An input removed takes its status along.
    assert.is((await api.delete(`/api/v1/inputs/${id}`)).status, 200);
    assert.is(await inputModels(ctx.svc.db).InputStatus.countDocuments({ _id: { $regex: `^${id}:` } }), 0);
  },
);

s("an alarm's end and the merges of its incident at the same moment all land", async (ctx) => {
  const [mail, fax, pager] = [await documentInput(ctx), await documentInput(ctx), await documentInput(ctx)];
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  const outcomes: string[] = [];
  for (let i = 0; i < 6; i++) {
    const number = `77${i}-2026`;
    const first = await send(ctx, mail, { Einsatznummer: number, Stichwort: 'B2 Zimmerbrand' });
    assert.is(first.outcome, 'raised');
    const alarmId = first.alarmId!;
    const [ended, ...later] = await Promise.all([
      api.post(`/api/v1/alarms/${alarmId}/end`, {}),
      send(ctx, fax, { Einsatznummer: number, Stichwort: 'B2 Zimmerbrand', Einsatzort: `Ring ${i}, Aachen` }),
      send(ctx, pager, { Einsatznummer: number, Stichwort: 'B2 Zimmerbrand', Bemerkung: `Runde ${i}` }),
    ]);
    assert.is(ended.status, 200, JSON.stringify(ended.body));
    const shown = await alarm(ctx, alarmId);
    assert.type(shown.endedAt, 'string', `round ${i}: the end was lost`);
    const merged = later.filter((d) => d.outcome === 'merged' && d.alarmId === alarmId).length;
    outcomes.push(later.map((d) => (d.alarmId === alarmId ? d.outcome : `${d.outcome} elsewhere`)).join('+'));
    assert.is(shown.sources.length, 1 + merged, `round ${i}: ${JSON.stringify(shown.sources)}`);
    const into = (d: { outcome: string; alarmId: number | null }) => d.outcome === 'merged' && d.alarmId === alarmId;
    if (into(later[0]!)) assert.is(shown.address, `Ring ${i}, Aachen`, `round ${i}`);
    if (into(later[1]!)) assert.is(shown.message, `Runde ${i}`, `round ${i}`);
  }
});

s('an incident whose alarm ended is followed by one alarm, however many documents come at once', async (ctx) => {
  const inputs = await Promise.all(Array.from({ length: 6 }, () => documentInput(ctx)));
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  for (let i = 0; i < 3; i++) {
    const number = `88${i}-2026`;
    const first = await send(ctx, inputs[0]!, { Einsatznummer: number, Stichwort: 'H1 Tür' });
    assert.is(first.outcome, 'raised');
    assert.is((await api.post(`/api/v1/alarms/${first.alarmId}/end`, {})).status, 200);
    const later = await Promise.all(
      inputs.map((input) => send(ctx, input, { Einsatznummer: number, Stichwort: 'H1 Tür' })),
    );
    const raised = later.filter((d) => d.outcome === 'raised');
    assert.is(raised.length, 1, `round ${i}: ${JSON.stringify(later)}`);
    assert.ok(
      later.every((d) => d.alarmId === raised[0]!.alarmId && d.alarmId !== first.alarmId),
      JSON.stringify(later),
    );
  }
});

s('a mail claim that ran out is taken over by one process of many at once', async (ctx) => {
  const { MailClaim } = inputModels(ctx.svc.db);
  for (let i = 0; i < 5; i++) {
    const _id = `900:1:${i}`;
    await MailClaim.create({ _id, inputId: 900, by: 'gone', until: new Date(Date.now() - 1_000), done: false });
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, p) => claimMail(MailClaim, _id, 900, `p${p}`)));
    assert.is(outcomes.filter((o) => o === 'mine').length, 1, JSON.stringify(outcomes));
    const winner = `p${outcomes.indexOf('mine')}`;
    assert.is((await MailClaim.findById(_id).lean())!.by, winner);
    assert.is(await claimMail(MailClaim, _id, 900, 'late'), 'busy');
  }
  // One that took it over and died before it wrote the claim: its own takeover runs out in turn.
  const _id = '900:1:99';
  const past = new Date(Date.now() - 60_000);
  await MailClaim.create({ _id, inputId: 900, by: 'gone', until: past, done: false });
  const successor = { _id: `${_id}@${past.getTime()}`, inputId: 900, by: 'died too', done: false };
  await MailClaim.create({ ...successor, until: new Date(Date.now() + 60_000) });
  assert.is(await claimMail(MailClaim, _id, 900, 'p1'), 'busy', 'while the takeover may still run');
  await MailClaim.updateOne({ _id: successor._id }, { $set: { until: new Date(Date.now() - 1_000) } });
  assert.is(await claimMail(MailClaim, _id, 900, 'p2'), 'mine');
  assert.is((await MailClaim.findById(_id).lean())!.by, 'p2');
  await MailClaim.updateOne({ _id }, { $set: { done: true } });
  assert.is(await claimMail(MailClaim, _id, 900, 'p3'), 'done');
});

s("a screen removed while its pairing's poll stores its token: the token does not outlive the screen", async (ctx) => {
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  const monitor = (await api.post('/api/v1/monitor', { name: 'Halle', organizationID: ctx.org.orgId })).body.id;
  const { Token } = identityModels(ctx.svc.db);
  for (let i = 0; i < 8; i++) {
    const started = (await request(ctx.svc.url, 'POST', '/api/v1/screens/pairing')).body;
    const screen = (await api.post(`/api/v1/monitor/${monitor}/screens`, { code: started.code, name: `Tor ${i}` }))
      .body;
    const [polled, removed] = await Promise.all([
      request(ctx.svc.url, 'GET', `/api/v1/screens/pairing/${started.pairingId}`, {
        headers: { 'Pairing-Secret': started.pollSecret },
      }),
      api.delete(`/api/v1/screens/${screen.id}`),
    ]);
    assert.is(removed.status, 200, JSON.stringify(removed.body));
    if (polled.status === 200) {
      const stored = await Token.findById(createHash('sha256').update(polled.body.token).digest('hex')).lean();
      assert.ok(stored?.revokedAt, `round ${i}: the removed screen's token is valid`);
    } else assert.is(polled.status, 404, JSON.stringify(polled.body));
  }
});

s.run();
