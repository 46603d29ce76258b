// Mobile numbers S9–S13 (sms) and phone numbers C7–C11 (call): one owner-scoped shape, with the 2019
// documents' placeholder paths.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError, expectSameAnswer } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';

const OWNER_ID = 'owner_id missing or in wrong format';
const PAYLOAD = 'Payload missing or in wrong format';

const CHANNELS = [
  {
    channel: 'sms',
    resource: 'mobile',
    idName: 'mobileID',
    labels: ['S9', 'S10', 'S11', 'S12', 'S13'],
    updateBy: 'body',
    getAsList: true,
  },
  {
    channel: 'call',
    resource: 'phone',
    idName: 'phoneID',
    labels: ['C7', 'C9', 'C8', 'C10', 'C11'],
    updateBy: 'path',
    getAsList: false,
  },
] as const;

for (const {
  channel,
  resource,
  idName,
  labels: [list, update, create, remove, get],
  updateBy,
  getAsList,
} of CHANNELS) {
  const base = `/api/v1/${channel}/${resource}`;
  const ID = `${idName} missing or in wrong format`;
  const getPath = (id: number | string) => `/api/v1/${channel}/${id}`;
  const putPath = (id: number) => (updateBy === 'path' ? `${base}/${id}` : base);
  const putBody = (id: number, fields: Record<string, unknown>) => (updateBy === 'path' ? fields : { id, ...fields });
  const one = (body: any) => (getAsList ? body[0] : body);
  const number = (ownerID: number, over: Record<string, unknown> = {}) => ({
    gsm: '004917612345678',
    name: 'Private',
    ownerID,
    active: true,
    ...over,
  });
  const createNumber = async (ctx: Ctx, over: Record<string, unknown> = {}) => {
    const res = await client(ctx.svc.url, member(ctx.a)).post(base, number(ctx.a.member.userId, over));
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  const s = channelSuite(`${list}–${get} ${resource} numbers`);
  unauthorizedCases(s, list, 'GET', (ctx) => `${base}?owner_id=${ctx.a.member.userId}`);
  unauthorizedCases(s, create, 'POST', () => base, number(1));
  unauthorizedCases(s, update, 'PUT', () => putPath(1), putBody(1, { name: 'x' }));
  unauthorizedCases(s, remove, 'DELETE', () => `${base}/1`);
  unauthorizedCases(s, get, 'GET', () => getPath(1));

  s(
    `${list} 400 when owner_id is missing or malformed; ${remove}/${get} 400 for a malformed ${idName}`,
    async (ctx) => {
      const c = client(ctx.svc.url, member(ctx.a));
      for (const q of ['', '?owner_id=x', '?owner_id=0', `?owner_id=${ABOVE_MAX_ID}`])
        expectBadRequest(await c.get(`${base}${q}`), 'invalid_parameter', OWNER_ID, 'query');
      for (const bad of ['x1', '0', '-2', '1.5', ABOVE_MAX_ID]) {
        expectBadRequest(await c.delete(`${base}/${bad}`), 'invalid_parameter', ID, 'path', idName);
        expectBadRequest(await c.get(getPath(bad)), 'invalid_parameter', ID, 'path', idName);
      }
      // The placeholder needs the ID in the query; a query ID differing from the path is refused.
      expectBadRequest(await c.delete(`${base}/%7B${idName}%7D`), 'invalid_parameter', ID, 'query', idName);
      expectBadRequest(await c.get(`${getPath(5)}?${idName}=6`), 'invalid_parameter', ID, 'query', idName);
      expectBadRequest(await c.get(`${getPath('%7BmobileIDx%7D')}`), 'invalid_parameter', ID, 'path', idName);
    },
  );

  s(`${create}/${update} 400 for a missing or wrong payload, an invalid gsm or a changed ownerID`, async (ctx) => {
    const c = client(ctx.svc.url, member(ctx.a));
    const me = ctx.a.member.userId;
    expectBadRequest(await c.post(base), 'invalid_body', PAYLOAD, 'body');
    expectBadRequest(await c.post(base, { name: 'x', ownerID: me }), 'invalid_body', PAYLOAD, 'body', 'gsm');
    expectBadRequest(await c.post(base, { gsm: '004917612345678' }), 'invalid_body', PAYLOAD, 'body', 'ownerID');
    for (const gsm of ['+49 176 12345678', '4917612345678', '0049176', '+49176', '00999123456789'])
      expectBadRequest(await c.post(base, number(me, { gsm })), 'invalid_body', PAYLOAD, 'body', 'gsm');
    // "+49…" as the inbound doors take it is stored and answered as "0049…".
    const plus = await c.post(base, number(me, { gsm: '+4917698765432' }));
    assert.is(plus.status, 200, JSON.stringify(plus.body));
    assert.is(plus.body.gsm, '004917698765432');
    await c.delete(`${base}/${plus.body.id}`);
    expectBadRequest(
      await c.post(base, number(me, { name: 'n'.repeat(101) })),
      'invalid_body',
      PAYLOAD,
      'body',
      'name',
    );
    expectBadRequest(await c.post(base, number(me, { pager: true })), 'invalid_body', PAYLOAD, 'body', 'pager');
    const existing = await createNumber(ctx);
    expectBadRequest(await c.put(putPath(existing.id)), 'invalid_body', PAYLOAD, 'body');
    expectBadRequest(
      await c.put(putPath(existing.id), putBody(existing.id, { ownerID: ctx.a.admin.userId })),
      'invalid_body',
      PAYLOAD,
      'body',
      'ownerID',
    );
    expectBadRequest(
      await c.put(putPath(existing.id), putBody(existing.id, { gsm: '0049' })),
      'invalid_body',
      PAYLOAD,
      'body',
      'gsm',
    );
    if (updateBy === 'body') {
      expectBadRequest(await c.put(base, { name: 'no id' }), 'invalid_body', PAYLOAD, 'body', 'id');
      expectBadRequest(
        await c.put(`${base}?${idName}=${existing.id + 1}`, { id: existing.id, name: 'x' }),
        'invalid_body',
        PAYLOAD,
        'body',
        'id',
      );
    }
  });

  s(`${list}–${get} 403 for lists and creates out of reach, 404 for one number out of reach`, async (ctx) => {
    const mine = await createNumber(ctx);
    const target = ctx.a.member.userId;
    for (const auth of [pat(ctx.loner), key(ctx.b), admin(ctx.a)]) {
      const c = client(ctx.svc.url, auth);
      expectError(await c.get(`${base}?owner_id=${target}`), 403, 'forbidden');
      expectError(await c.post(base, number(target)), 403, 'forbidden');
      expectError(await c.get(getPath(mine.id)), 404, 'not_found');
      expectError(await c.put(putPath(mine.id), putBody(mine.id, { name: 'taken over' })), 404, 'not_found');
      expectError(await c.delete(`${base}/${mine.id}`), 404, 'not_found');
    }
    // Naming an organization the caller does not administer, or one the owner is not in.
    expectError(
      await client(ctx.svc.url, member(ctx.b)).get(`${getPath(mine.id)}?organization_id=${ctx.b.orgId}`),
      404,
      'not_found',
    );
    expectError(
      await client(ctx.svc.url, key(ctx.b)).get(`${getPath(mine.id)}?organization_id=${ctx.a.orgId}`),
      404,
      'not_found',
    );
    expectError(
      await client(ctx.svc.url, admin(ctx.b)).get(`${getPath(mine.id)}?organization_id=${ctx.b.orgId}`),
      404,
      'not_found',
    );
    expectError(await client(ctx.svc.url, member(ctx.a)).get(getPath(99_999_999)), 404, 'not_found');
  });

  s(
    `${get}, ${update}, ${remove}: an existing number out of reach is answered exactly as one that ` +
      `does not exist, whatever organization_id names`,
    async (ctx) => {
      const mine = await createNumber(ctx);
      const absent = mine.id + 1_000_000;
      const ops = (id: number, org: string) =>
        [
          [get, (c: ReturnType<typeof client>) => c.get(`${getPath(id)}${org}`)],
          [
            update,
            (c: ReturnType<typeof client>) => c.put(`${putPath(id)}${org}`, putBody(id, { name: 'taken over' })),
          ],
          [remove, (c: ReturnType<typeof client>) => c.delete(`${base}/${id}${org}`)],
        ] as const;
      for (const auth of [admin(ctx.b), member(ctx.b), key(ctx.b), pat(ctx.loner)]) {
        const c = client(ctx.svc.url, auth);
        for (const org of [
          '',
          `?organization_id=${ctx.a.orgId}`,
          `?organization_id=${ctx.b.orgId}`,
          '?organization_id=1',
          '?organization_id=999999',
        ]) {
          const existing = ops(mine.id, org);
          const missing = ops(absent, org);
          for (let i = 0; i < existing.length; i++) {
            const [label, call] = existing[i];
            const there = await call(c);
            assert.is(there.status, 404, `${label}${org}: ${JSON.stringify(there.body)}`);
            expectSameAnswer(there, await missing[i][1](c), `${label}${org}`);
          }
        }
      }
      assert.is(
        one((await client(ctx.svc.url, member(ctx.a)).get(getPath(mine.id))).body).name,
        mine.name,
        'nothing was changed or deleted',
      );
    },
  );

  s(
    `${create}, ${list}, ${get}, ${update}, ${remove} 200 for the owner, the API key and an admin ` +
      `naming the organization`,
    async (ctx) => {
      const created = await client(ctx.svc.url, member(ctx.a)).post(base, {
        id: 0,
        gsm: '0033612345678',
        ownerID: ctx.a.member.userId,
      });
      assert.is(created.status, 200);
      assert.equal(created.body, {
        id: created.body.id,
        active: true,
        gsm: '0033612345678',
        name: '',
        ownerID: ctx.a.member.userId,
      });
      const byKey = await client(ctx.svc.url, key(ctx.a)).post(
        base,
        number(ctx.a.member.userId, { name: 'Office', active: false }),
      );
      assert.is(byKey.status, 200);
      for (const [auth, org] of [
        [member(ctx.a), ''],
        [key(ctx.a), ''],
        [admin(ctx.a), `organization_id=${ctx.a.orgId}`],
      ] as const) {
        const listed = await client(ctx.svc.url, auth).get(
          `${base}?owner_id=${ctx.a.member.userId}${org ? `&${org}` : ''}`,
        );
        assert.is(listed.status, 200);
        assert.equal(listed.body.slice(-2), [created.body, byKey.body]);
        const got = await client(ctx.svc.url, auth).get(`${getPath(created.body.id)}${org ? `?${org}` : ''}`);
        assert.is(got.status, 200);
        assert.equal(got.body, getAsList ? [created.body] : created.body);
      }
      // The organization changes what it entered; what the member entered himself only he changes.
      const changed = await client(ctx.svc.url, admin(ctx.a)).put(
        `${putPath(byKey.body.id)}?organization_id=${ctx.a.orgId}`,
        putBody(byKey.body.id, { name: 'Mobile', active: true, ownerID: ctx.a.member.userId }),
      );
      assert.is(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body, { ...byKey.body, name: 'Mobile', active: true });
      assert.equal(one((await client(ctx.svc.url, member(ctx.a)).get(getPath(byKey.body.id))).body), changed.body);
      expectError(
        await client(ctx.svc.url, admin(ctx.a)).put(
          `${putPath(created.body.id)}?organization_id=${ctx.a.orgId}`,
          putBody(created.body.id, { name: 'Umgeleitet', ownerID: ctx.a.member.userId }),
        ),
        403,
        'forbidden',
      );
      expectError(await client(ctx.svc.url, key(ctx.a)).delete(`${base}/${created.body.id}`), 403, 'forbidden');
      const own = await client(ctx.svc.url, member(ctx.a)).put(
        `${putPath(created.body.id)}`,
        putBody(created.body.id, { name: 'Mobile', active: false, ownerID: ctx.a.member.userId }),
      );
      assert.is(own.status, 200, JSON.stringify(own.body));
      const removed = await client(ctx.svc.url, member(ctx.a)).delete(`${base}/${created.body.id}`);
      assert.equal(removed.body, { status: 'deleted' });
      expectError(await client(ctx.svc.url, member(ctx.a)).get(getPath(created.body.id)), 404, 'not_found');
    },
  );

  s(
    `${remove}, ${get}${updateBy === 'path' ? `, ${update}` : ''} 200 with the 2019 placeholder ` +
      `path and the ID in the query`,
    async (ctx) => {
      const created = await createNumber(ctx, { name: 'Placeholder' });
      const c = client(ctx.svc.url, member(ctx.a));
      const got = await c.get(`${getPath(`%7B${idName}%7D`)}?${idName}=${created.id}`);
      assert.is(got.status, 200);
      assert.equal(one(got.body), created);
      const put =
        updateBy === 'path'
          ? await c.put(`${base}/%7B${idName}%7D?${idName}=${created.id}`, { name: 'Renamed' })
          : await c.put(`${base}?${idName}=${created.id}`, { name: 'Renamed' });
      assert.is(put.status, 200, JSON.stringify(put.body));
      assert.is(put.body.name, 'Renamed');
      const removed = await c.delete(`${base}/%7B${idName}%7D?${idName}=${created.id}`);
      assert.equal(removed.body, { status: 'deleted' });
    },
  );

  s.run();
}
