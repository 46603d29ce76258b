// Alarming configurations S1–S4 (sms) and C1–C4 (call, with alarmTemplateID): one shape, per channel.
import * as assert from 'uvu/assert';
import { ABOVE_MAX_ID, expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { admin, channelSuite, key, member, pat, unauthorizedCases, type Ctx } from './helpers/channels.js';

const ORGANIZATION_ID = 'organization_id missing or in wrong format';
const PAYLOAD = 'Payload missing or invalid';
const CONFIGURATION_ID = 'configurationID payload missing or invalid';

const CHANNELS = [
  { channel: 'sms', labels: ['S1', 'S2', 'S3', 'S4'], extra: {} },
  { channel: 'call', labels: ['C1', 'C2', 'C3', 'C4'], extra: { alarmTemplateID: 4711 } },
] as const;

for (const {
  channel,
  labels: [list, update, create, remove],
  extra,
} of CHANNELS) {
  const path = `/api/v1/${channel}/alarming`;
  let n = 0;
  const body = (ctx: Ctx, over: Record<string, unknown> = {}) => ({
    gsm: `00491761234${String(5000 + ++n)}`,
    organizationID: ctx.a.orgId,
    pin: '4711',
    ...extra,
    ...over,
  });
  const createConfig = async (ctx: Ctx, over: Record<string, unknown> = {}) => {
    const res = await client(ctx.svc.url, key(ctx.a)).post(path, body(ctx, over));
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  const s = channelSuite(`${list}–${remove} ${channel}-alarming configurations`);
  unauthorizedCases(s, list, 'GET', (ctx) => `${path}?organization_id=${ctx.a.orgId}`);
  unauthorizedCases(s, update, 'PUT', () => path, { id: 1, pin: '1234' });
  unauthorizedCases(s, create, 'POST', () => path, { gsm: '004917612345678', organizationID: 1, pin: '1234' });
  unauthorizedCases(s, remove, 'DELETE', () => `${path}/1`);

  s(
    `${list} 400 when organization_id is missing or malformed; ${remove} 400 for a malformed configurationID`,
    async (ctx) => {
      const c = client(ctx.svc.url, key(ctx.a));
      for (const q of ['', '?organization_id=x', '?organization_id=0', `?organization_id=${ABOVE_MAX_ID}`]) {
        expectBadRequest(await c.get(`${path}${q}`), 'invalid_parameter', ORGANIZATION_ID, 'query', 'organization_id');
      }
      for (const bad of ['x', '0', ABOVE_MAX_ID])
        expectBadRequest(
          await c.delete(`${path}/${bad}`),
          'invalid_parameter',
          CONFIGURATION_ID,
          'path',
          'configurationID',
        );
    },
  );

  s(
    `${create}/${update} 400 for a missing or invalid payload: gsm not E.164 with 00, pin not 4–8 ` +
      `digits, unknown fields`,
    async (ctx) => {
      const c = client(ctx.svc.url, key(ctx.a));
      expectBadRequest(await c.post(path), 'invalid_body', PAYLOAD, 'body');
      expectBadRequest(await c.post(path, body(ctx, { pin: '123' })), 'invalid_body', PAYLOAD, 'body', 'pin');
      expectBadRequest(await c.post(path, body(ctx, { pin: '123456789' })), 'invalid_body', PAYLOAD, 'body', 'pin');
      expectBadRequest(await c.post(path, body(ctx, { pin: '12a4' })), 'invalid_body', PAYLOAD, 'body', 'pin');
      for (const gsm of ['+49 17612345678', '017612345678', '0049123', '+49123', '00999123456789', '0044163296098']) {
        expectBadRequest(await c.post(path, body(ctx, { gsm })), 'invalid_body', PAYLOAD, 'body', 'gsm');
      }
      expectBadRequest(await c.post(path, body(ctx, { colour: 'red' })), 'invalid_body', PAYLOAD, 'body', 'colour');
      expectBadRequest(
        await c.post(path, body(ctx, { organizationID: undefined })),
        'invalid_body',
        PAYLOAD,
        'body',
        'organizationID',
      );
      if (channel === 'call')
        expectBadRequest(
          await c.post(path, body(ctx, { alarmTemplateID: undefined })),
          'invalid_body',
          PAYLOAD,
          'body',
          'alarmTemplateID',
        );
      else
        expectBadRequest(
          await c.post(path, body(ctx, { alarmTemplateID: 3 })),
          'invalid_body',
          PAYLOAD,
          'body',
          'alarmTemplateID',
        );
      const existing = await createConfig(ctx);
      expectBadRequest(await c.put(path, { pin: '1234' }), 'invalid_body', PAYLOAD, 'body', 'id');
      expectBadRequest(await c.put(path, { id: existing.id, gsm: '0049' }), 'invalid_body', PAYLOAD, 'body', 'gsm');
      expectBadRequest(
        await c.put(path, { id: existing.id, organizationID: ctx.b.orgId }),
        'invalid_body',
        PAYLOAD,
        'body',
        'organizationID',
      );
    },
  );

  s(
    `${list}–${remove} 403 for members writing and for other organizations; 404 for another organization's configuration`,
    async (ctx) => {
      const mine = await createConfig(ctx);
      expectError(await client(ctx.svc.url, member(ctx.a)).post(path, body(ctx)), 403, 'forbidden');
      expectError(await client(ctx.svc.url, member(ctx.a)).put(path, { id: mine.id, pin: '9999' }), 403, 'forbidden');
      expectError(await client(ctx.svc.url, member(ctx.a)).delete(`${path}/${mine.id}`), 403, 'forbidden');
      for (const auth of [key(ctx.b), admin(ctx.b), pat(ctx.loner)]) {
        const c = client(ctx.svc.url, auth);
        expectError(await c.get(`${path}?organization_id=${ctx.a.orgId}`), 403, 'forbidden');
        expectError(await c.post(path, body(ctx)), 403, 'forbidden');
        expectError(await c.put(path, { id: mine.id, pin: '9999' }), 404, 'not_found');
        expectError(await c.delete(`${path}/${mine.id}`), 404, 'not_found');
      }
      expectError(await client(ctx.svc.url, key(ctx.a)).delete(`${path}/987654`), 404, 'not_found');
    },
  );

  s(
    `${create}/${update} 409 when the organization already has a configuration for the gsm number, ` +
      `also when creates race`,
    async (ctx) => {
      const first = await createConfig(ctx, { gsm: '004930123456' });
      expectError(
        await client(ctx.svc.url, key(ctx.a)).post(path, body(ctx, { gsm: '004930123456' })),
        409,
        'conflict',
      );
      const second = await createConfig(ctx);
      expectError(await client(ctx.svc.url, key(ctx.a)).put(path, { id: second.id, gsm: first.gsm }), 409, 'conflict');
      // Another organization may use the same number.
      assert.is(
        (
          await client(ctx.svc.url, key(ctx.b)).post(
            path,
            body(ctx, { gsm: '004930123456', organizationID: ctx.b.orgId }),
          )
        ).status,
        200,
      );
      const raced = await Promise.all(
        Array.from({ length: 6 }, () =>
          client(ctx.svc.url, key(ctx.a)).post(path, body(ctx, { gsm: '0033612345678' })),
        ),
      );
      assert.equal(raced.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
    },
  );

  s(
    `${create}, ${update}, ${list}, ${remove} 200 with the full shape; one organization never sees another's`,
    async (ctx) => {
      const created = await client(ctx.svc.url, admin(ctx.a)).post(
        path,
        body(ctx, { id: 0, gsm: '0012025550123', pin: '00012345' }),
      );
      assert.is(created.status, 200);
      assert.equal(created.body, {
        id: created.body.id,
        gsm: '0012025550123',
        organizationID: ctx.a.orgId,
        pin: '00012345',
        ...extra,
      });
      const changed = await client(ctx.svc.url, key(ctx.a)).put(path, {
        id: created.body.id,
        pin: '8765',
        ...(channel === 'call' ? { alarmTemplateID: 99 } : {}),
      });
      assert.is(changed.status, 200);
      assert.equal(changed.body, {
        ...created.body,
        pin: '8765',
        ...(channel === 'call' ? { alarmTemplateID: 99 } : {}),
      });
      await client(ctx.svc.url, key(ctx.b)).post(path, body(ctx, { organizationID: ctx.b.orgId }));
      const listed = await client(ctx.svc.url, member(ctx.a)).get(`${path}?organization_id=${ctx.a.orgId}`);
      assert.is(listed.status, 200);
      assert.ok(listed.body.some((c: any) => c.id === created.body.id && c.pin === '8765'));
      assert.ok(listed.body.every((c: any) => c.organizationID === ctx.a.orgId));
      assert.equal(
        listed.body.map((c: any) => c.id),
        [...listed.body.map((c: any) => c.id)].sort((x: number, y: number) => x - y),
      );
      const removed = await client(ctx.svc.url, key(ctx.a)).delete(`${path}/${created.body.id}`);
      assert.equal(removed.body, { status: 'deleted' });
      const after = await client(ctx.svc.url, key(ctx.a)).get(`${path}?organization_id=${ctx.a.orgId}`);
      assert.not.ok(after.body.some((c: any) => c.id === created.body.id));
      expectError(await client(ctx.svc.url, key(ctx.a)).delete(`${path}/${created.body.id}`), 404, 'not_found');
    },
  );

  s.run();
}
