// Remote control of a paired page (F6/F7: identify, sleep, wake, reload) and test alarms (F8), in
// Chromium against the real service: what the page shows, the DOM event and what a kiosk agent hears.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { eventually, kioskAgent, openPaired, powerEvents, RECORD_POWER } from './helpers/fleet.js';
import { WAIT_MS } from './helpers/browser.js';
import { client } from './helpers/http.js';
import { alarm, closeScreens, newMonitor, setUpWall, tearDownWall, write, type WallCtx } from './helpers/wall.js';

const remote = suite<WallCtx>('display fleet: commands and test alarms on a paired page');
remote.before(setUpWall);
remote.after.each(closeScreens);
remote.after(tearDownWall);

const api = (ctx: WallCtx) => client(ctx.service.url, { apiKey: ctx.org.apiKey });

async function command(
  ctx: WallCtx,
  screenId: number,
  name: string,
): Promise<{ acknowledged: number[]; missing: number[] }> {
  const res = await api(ctx).post(`/api/v1/screens/${screenId}/commands`, { command: name });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The monitor's data version (M6's ETag). */
async function dataVersion(ctx: WallCtx, id: number): Promise<string> {
  return (await api(ctx).get(`/api/v1/monitor/${id}/data`)).headers.get('etag')!;
}

// 4 oscillators a strike, 3 strikes a gong (display-client/src/sound.ts): plain JavaScript for the page.
const COUNT_OSCILLATORS = `window.oscillators = 0;
  const createOscillator = BaseAudioContext.prototype.createOscillator;
  BaseAudioContext.prototype.createOscillator = function () { window.oscillators++; return createOscillator.call(this); };`;

remote(
  "identify: acknowledged, the screen's name and its monitor's large over the wall, gone after 10 s",
  async (ctx) => {
    const id = await newMonitor(ctx, { name: 'Wache Nord' });
    const { screen, screenId } = await openPaired(ctx, id, 'Fahrzeughalle links');
    assert.equal(await command(ctx, screenId, 'identify'), { acknowledged: [screenId], missing: [] });
    await screen.page.getByTestId('identify').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.text('identify-name'), 'Fahrzeughalle links');
    assert.is(await screen.text('identify-monitor'), 'shows monitor “Wache Nord”');
    const box = await screen.page.getByTestId('identify').boundingBox();
    assert.equal(box, { x: 0, y: 0, width: 1920, height: 1080 });
    const size = await screen.page
      .getByTestId('identify-name')
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(size >= 60, `name at ${size}px`);
    await screen.page.getByTestId('identify').waitFor({ state: 'detached', timeout: 10_000 + WAIT_MS });
    assert.is(await screen.count('standby'), 1);
    assert.equal(screen.errors, []);
  },
);

remote(
  'sleep blanks the page (DOM event, kiosk agent told) while the live state runs on; an alarm ' +
    'wakes it, standby puts it back to sleep; wake returns',
  async (ctx) => {
    const id = await newMonitor(ctx, { standbyDelay: 0 });
    const { screen, screenId } = await openPaired(ctx, id, 'Umkleide', '', undefined, RECORD_POWER);
    const agent = await kioskAgent(ctx.service.url, (await screen.storedToken())!);
    try {
      assert.equal(await command(ctx, screenId, 'sleep'), { acknowledged: [screenId], missing: [] });
      await screen.page.getByTestId('sleep').waitFor({ timeout: WAIT_MS });
      assert.equal(await screen.page.getByTestId('sleep').boundingBox(), { x: 0, y: 0, width: 1920, height: 1080 });
      assert.equal(await powerEvents(screen), ['sleep']);
      await eventually(
        async () => agent.states,
        (s) => s.length === 1,
        'the agent hearing sleep',
      );

      // Underneath, the screen stays live.
      await write(ctx, 'POST', `/api/v1/monitor/${id}/data/meta`, { pagers: { activePager: 17, inactivePager: 2 } });
      await screen.waitForText('pagers-active', '17');
      assert.is(await screen.count('sleep'), 1);

      // A station must never miss an alarm.
      await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(31, 'B3 Scheunenbrand', 1, 3));
      await screen.waitForText('alarm-event', 'B3 Scheunenbrand');
      await screen.page.getByTestId('sleep').waitFor({ state: 'detached', timeout: WAIT_MS });
      await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
      await screen.page.getByTestId('sleep').waitFor({ timeout: WAIT_MS });
      assert.is(await screen.count('standby'), 1);

      assert.equal(await command(ctx, screenId, 'wake'), { acknowledged: [screenId], missing: [] });
      await screen.page.getByTestId('sleep').waitFor({ state: 'detached', timeout: WAIT_MS });
      assert.equal(await powerEvents(screen), ['sleep', 'wake', 'sleep', 'wake']);
      await eventually(
        async () => agent.states,
        (s) => s.length === 4,
        'the agent hearing all four',
      );
      assert.equal(agent.states, ['sleep', 'wake', 'sleep', 'wake']);
    } finally {
      agent.socket.close();
    }
    assert.equal(screen.errors, []);
  },
);

remote(
  'reload is acknowledged before the page reloads, which comes back paired; F7 reaches every screen ' +
    'of the monitor and names the missing one',
  async (ctx) => {
    const id = await newMonitor(ctx);
    const a = await openPaired(ctx, id, 'Links');
    const b = await openPaired(ctx, id, 'Rechts');
    await a.screen.page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    assert.equal(await command(ctx, a.screenId, 'reload'), { acknowledged: [a.screenId], missing: [] });
    await eventually(
      () => a.screen.page.evaluate(() => (window as unknown as { marker?: number }).marker ?? null).catch(() => 1),
      (m) => m === null,
      'the reload',
    );
    await a.screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });

    const all = await api(ctx).post(`/api/v1/monitor/${id}/screens/commands`, { command: 'identify' });
    assert.is(all.status, 200);
    assert.equal(all.body, { acknowledged: [a.screenId, b.screenId], missing: [] });
    await b.screen.page.getByTestId('identify').waitFor({ timeout: WAIT_MS });
    assert.is(await b.screen.text('identify-name'), 'Rechts');

    await b.screen.close();
    const one = await api(ctx).post(`/api/v1/monitor/${id}/screens/commands`, { command: 'wake' });
    assert.equal(one.body, { acknowledged: [a.screenId], missing: [b.screenId] });
    assert.equal(a.screen.errors, []);
  },
);

remote(
  'a test alarm is marked TEST (banner, stripes, frame) with its gong, leaves M6 alone and ends by itself at endsAt',
  async (ctx) => {
    const id = await newMonitor(ctx, { configuration: { language: 'de' } });
    const { screen } = await openPaired(ctx, id, 'Halle', '', undefined, COUNT_OSCILLATORS);
    const before = await dataVersion(ctx, id);
    // 12 s: time enough to look at it all before it ends, even on a busy machine.
    const res = await api(ctx).post(`/api/v1/monitor/${id}/test-alarm`, {
      message: 'Probe der Alarmierung – nicht ausrücken',
      durationSeconds: 12,
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await screen.waitForText('test-banner', 'PROBEALARM – kein echter Einsatz');
    assert.is(await screen.text('alarm-event'), 'Probealarm');
    assert.is(await screen.text('alarm-message'), 'Probe der Alarmierung – nicht ausrücken');
    assert.is(await screen.text('alarm-address'), 'Feuerwache 1, Hauptstraße 1, 52062 Aachen');
    const panel = screen.page.getByTestId('alarm-panel');
    assert.is(await panel.getAttribute('data-test-alarm'), '');
    const look = await panel.evaluate((el) => ({
      border: getComputedStyle(el).borderTopColor,
      head: getComputedStyle(el.querySelector('.panel__head')!).backgroundImage,
    }));
    assert.is(look.border, 'rgb(250, 204, 21)');
    assert.match(look.head, /repeating-linear-gradient/);
    await screen.page.waitForFunction(() => (window as unknown as { oscillators: number }).oscillators === 12, null, {
      timeout: WAIT_MS,
    });
    assert.is(await dataVersion(ctx, id), before, 'M6 unchanged');

    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    assert.is(await screen.count('test-banner'), 0);
    assert.is(await dataVersion(ctx, id), before);
    assert.equal(screen.errors, []);
  },
);

remote('a real alarm replaces a running test alarm at once, and the test does not come back after it', async (ctx) => {
  const id = await newMonitor(ctx, { standbyDelay: 0 });
  const { screen } = await openPaired(ctx, id, 'Halle');
  assert.is((await api(ctx).post(`/api/v1/monitor/${id}/test-alarm`, { durationSeconds: 120 })).status, 200);
  await screen.waitForText('test-banner', 'TEST — not a real alarm');
  assert.is(
    await screen.text('alarm-message'),
    'A test of this screen — do not turn out',
    'sent without a message: the screen says it',
  );
  await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(88, 'TH Person im Wasser', 1, 2));
  await screen.waitForText('alarm-event', 'TH Person im Wasser');
  assert.is(await screen.count('test-banner'), 0);
  await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
  await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
  await screen.page.waitForTimeout(500);
  assert.is(await screen.count('test-banner'), 0);
  assert.equal(screen.errors, []);
});

remote.run();
