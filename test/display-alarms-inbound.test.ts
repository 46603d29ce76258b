// An SMS with the PIN raises an alarm that a wall screen in Chromium shows; a wrong PIN shows nothing;
// a member's answer (A10) moves the wall's counter and lists him as coming. WALL_SHOTS_DIR=<dir> saves
// screenshots of the alarm, landscape and portrait.
import path from 'node:path';
import * as assert from 'uvu/assert';
import { LANDSCAPE, PORTRAIT, WAIT_MS } from './helpers/browser.js';
import { client, request } from './helpers/http.js';
import { suite } from './helpers/suite.js';
import { closeScreens, openWall, settled, STATION, tearDownWall, type WallCtx } from './helpers/wall.js';
import { launchChromium } from './helpers/browser.js';
import { createOrg, startTestService } from './helpers/service.js';
import { startGateway, type FakeGateway } from './helpers/gateways.js';

const INBOUND = 'inbound-token';
const wall = suite<WallCtx & { sms: FakeGateway }>('display: an alarm raised by SMS, answered on the wall');
wall.before(async (ctx) => {
  ctx.browser = await launchChromium();
  ctx.sms = await startGateway();
  ctx.service = await startTestService({ INBOUND_GATEWAY_TOKEN: INBOUND, SMS_GATEWAY_URL: ctx.sms.url });
  ctx.org = await createOrg(ctx.service);
  ctx.screens = [];
});
wall.after.each(closeScreens);
wall.after(async (ctx) => {
  await tearDownWall(ctx);
  await ctx.sms.close();
});

wall("IN1 with the right PIN shows the alarm on the wall; the member's answer counts there by name", async (ctx) => {
  const api = client(ctx.service.url, { apiKey: ctx.org.apiKey });
  const monitor = (
    await api.post('/api/v1/monitor', { name: 'Fahrzeughalle', organizationID: ctx.org.orgId, configuration: STATION })
  ).body.id as number;
  const sender = '004917612340001';
  const config = await api.post('/api/v1/sms/alarming', { gsm: sender, organizationID: ctx.org.orgId, pin: '4711' });
  assert.is(config.status, 200, JSON.stringify(config.body));
  // The member is notified by SMS (the alarm's push fails here: no push gateway) and answers from his app.
  const mobile = await api.post(`/api/v1/sms/mobile?organization_id=${ctx.org.orgId}`, {
    gsm: '004917612340002',
    name: 'Mobil',
    ownerID: ctx.org.member.userId,
    active: true,
  });
  assert.is(mobile.status, 200, JSON.stringify(mobile.body));
  const device = await client(ctx.service.url, { pat: ctx.org.member.token }).post('/api/v1/app/device', {
    name: 'Phone',
    os: 'Android 15',
    ownerID: ctx.org.member.userId,
    pushToken: 'tok',
    pushTokenDevelopment: false,
    active: true,
  });
  assert.is(device.status, 200, JSON.stringify(device.body));
  const screens = [await openWall(ctx, monitor, LANDSCAPE), await openWall(ctx, monitor, PORTRAIT)];
  const sms = (text: string) =>
    request(ctx.service.url, 'POST', '/api/v1/inbound/sms', {
      body: { from: '+4917612340001', text },
      headers: { 'Gateway-Token': INBOUND },
    });

  assert.is((await sms('4712 B3 Wohnungsbrand')).status, 202);
  assert.is((await sms('4711 B3 Wohnungsbrand\nGoethestraße 5, Aachen')).status, 202);
  for (const screen of screens) {
    // The first alarm the wall shows is the right PIN's: the wrong one raised nothing.
    assert.is(await screen.waitForText('alarm-event', 'B3 Wohnungsbrand', WAIT_MS), 'B3 Wohnungsbrand');
    // The member with a mobile is notified (the admin has no target): one awaits.
    await screen.waitForText('counter-awaiting-value', '1', WAIT_MS);
  }
  const [alarm] = (await api.get(`/api/v1/alarms?organization_id=${ctx.org.orgId}`)).body.alarms;
  assert.is(alarm.source, 'sms');
  const answer = await client(ctx.service.url, { pat: ctx.org.member.token }).post(
    `/api/v1/app/feedback?organization_id=${ctx.org.orgId}`,
    { alarmID: alarm.id, deviceID: device.body.id, response: true, answerData: { distance: 3, duration: 6 } },
  );
  assert.is(answer.status, 200);
  for (const [i, screen] of screens.entries()) {
    await screen.waitForText('counter-positive-value', '1', WAIT_MS);
    assert.is(await screen.text('counter-awaiting-value'), '0');
    assert.ok(
      (await screen.texts('member')).some((name) => name.includes(`member of`)),
      'the coming member is listed by name',
    );
    await settled(screen);
    if (process.env.WALL_SHOTS_DIR)
      await screen.page.screenshot({
        path: path.join(process.env.WALL_SHOTS_DIR, `alarm-by-sms-${i === 0 ? 'landscape' : 'portrait'}.png`),
      });
    assert.equal(screen.errors, []);
  }
});

wall.run();
