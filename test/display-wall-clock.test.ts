// A kiosk whose clock is off by ten minutes still shows the server's time: the right elapsed time, a
// running alarm not ended, the standby delay and the standby clock. Chromium against the real service.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kioskClockOff, LANDSCAPE } from './helpers/browser.js';
import { connectScreen } from './helpers/screen.js';
import { alarm, closeScreens, newMonitor, openWall, setUpWall, tearDownWall, write, type WallCtx } from './helpers/wall.js';
import { clockText } from '../display-client/src/strings.js';

const clock = suite<WallCtx>('display wall: server time on a kiosk whose clock is off');
clock.before(setUpWall);
clock.after.each(closeScreens);
clock.after(tearDownWall);

const TEN_MINUTES = 10 * 60_000;

clock('the hub\'s subscribe answer carries the server\'s time', async (ctx) => {
  const id = await newMonitor(ctx);
  const screen = await connectScreen(ctx.service.url, ctx.org.apiKey);
  try {
    const before = Date.now();
    const answer = await screen.subscribe(id);
    assert.ok('data' in answer, JSON.stringify(answer));
    const serverTime = 'data' in answer ? answer.data.serverTime! : 0;
    assert.ok(serverTime >= before - 1 && serverTime <= Date.now() + 1, `serverTime ${serverTime}`);
  } finally {
    screen.close();
  }
});

for (const [direction, off] of [['ahead', TEN_MINUTES], ['behind', -TEN_MINUTES]] as const) {
  clock(`a kiosk clock 10 minutes ${direction} shows the right elapsed time and keeps a running alarm (ending in 5 minutes) on the wall`, async (ctx) => {
    const id = await newMonitor(ctx);
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(51, 'B3 Wohnungsbrand', 1, 2, {
      eventStartDate: new Date(Date.now() - 125_000).toISOString(),
      eventEndDate: new Date(Date.now() + 5 * 60_000).toISOString(),
    }));
    const screen = await openWall(ctx, id, LANDSCAPE, kioskClockOff(off));
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: 8_000 });
    assert.ok(Math.abs(await screen.page.evaluate(() => Date.now()) - Date.now() - off) < 5_000, 'the kiosk clock is off');
    // 2:05 and counting, as on the server; the kiosk's clock would say 12:05 or 0:00.
    await screen.waitForText('alarm-elapsed', /^2:0\d$/);
    await screen.page.waitForTimeout(1_500);
    assert.match(await screen.text('alarm-elapsed'), /^2:0\d$/);
    assert.is(await screen.count('alarm-ended'), 0, 'the running alarm is not shown as ended');
    assert.is(await screen.count('standby'), 0);
    assert.equal(screen.errors, []);
  });
}

clock('on a kiosk 10 minutes behind, a cleared alarm shows ENDED for standbyDelay (server time), then standby with the server\'s clock', async (ctx) => {
  const id = await newMonitor(ctx, { standbyDelay: 2 });
  await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(52, 'TH Verkehrsunfall', 1, 2));
  const screen = await openWall(ctx, id, LANDSCAPE, kioskClockOff(-TEN_MINUTES));
  await screen.page.getByTestId('alarm-event').waitFor({ timeout: 8_000 });
  await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
  await screen.page.getByTestId('alarm-ended').waitFor({ timeout: 5_000 });
  await screen.page.getByTestId('standby').waitFor({ timeout: 6_000 });
  // The standby clock is the server's (this machine's) time, not the kiosk's ten minutes earlier.
  const shown = await screen.text('standby-clock');
  const expected = [clockText(Date.now() - 2_000).hm, clockText(Date.now()).hm];
  assert.ok(expected.includes(shown.slice(0, 5)), `standby clock ${shown}, server ${expected.join(' or ')}`);
  assert.equal(screen.errors, []);
});

clock.run();
