// A kiosk whose clock is off by ten minutes still shows the server's time: the right elapsed time, a
// running alarm not ended, the standby delay and the standby clock. Chromium against the real service.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { kioskClockOff, LANDSCAPE, recordSeen, seenIn, WAIT_MS, type ScreenPage } from './helpers/browser.js';
import { eventually } from './helpers/fleet.js';
import { connectScreen } from './helpers/screen.js';
import {
  alarm,
  closeScreens,
  newMonitor,
  openWall,
  setUpWall,
  tearDownWall,
  write,
  type WallCtx,
} from './helpers/wall.js';
import { clockText, elapsedText } from '../display-client/src/strings.js';

const clock = suite<WallCtx>('display wall: server time on a kiosk whose clock is off');
clock.before(setUpWall);
clock.after.each(closeScreens);
clock.after(tearDownWall);

const TEN_MINUTES = 10 * 60_000;

clock("the hub's subscribe answer carries the server's time", async (ctx) => {
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

// The wall's times may trail the server by a refresh and by its estimate of the server's clock (half a
// round trip, long on a busy machine): a few seconds at most, where a kiosk's clock would be 10 minutes off.
const SLACK_MS = 10_000;

/** M:SS (or H:MM:SS) in seconds. */
const seconds = (text: string) => text.split(':').reduce((total, part) => total * 60 + Number(part), 0);

/** Reads the elapsed time the wall shows and checks it against the server's at the moment of reading. */
async function elapsedShown(screen: ScreenPage, startMs: number, what: string): Promise<number> {
  const before = Date.now();
  const shown = await screen.text('alarm-elapsed');
  const after = Date.now();
  assert.match(shown, /^\d+:\d\d$/, `${what}: ${shown}`);
  const low = Math.floor((before - SLACK_MS - startMs) / 1000);
  const high = Math.floor((after + SLACK_MS - startMs) / 1000);
  assert.ok(
    seconds(shown) >= low && seconds(shown) <= high,
    `${what}: the wall shows ${shown} where the server's elapsed time was ${elapsedText(startMs, before)} ` +
      `to ${elapsedText(startMs, after)}`,
  );
  return seconds(shown);
}

for (const [direction, off] of [
  ['ahead', TEN_MINUTES],
  ['behind', -TEN_MINUTES],
] as const) {
  clock(
    `a kiosk clock 10 minutes ${direction} shows the right elapsed time and keeps a running alarm ` +
      `(ending in 5 minutes) on the wall`,
    async (ctx) => {
      const id = await newMonitor(ctx);
      const start = Date.now() - 125_000;
      await write(
        ctx,
        'POST',
        `/api/v1/monitor/${id}/data/alarming`,
        alarm(51, 'B3 Wohnungsbrand', 1, 2, {
          eventStartDate: new Date(start).toISOString(),
          eventEndDate: new Date(Date.now() + 5 * 60_000).toISOString(),
        }),
      );
      const screen = await openWall(ctx, id, LANDSCAPE, kioskClockOff(off));
      await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
      const before = Date.now();
      const kiosk = await screen.page.evaluate(() => Date.now());
      const after = Date.now();
      assert.ok(
        kiosk - off >= before - 1_000 && kiosk - off <= after + 1_000,
        `the kiosk clock is off by ${kiosk - before} ms`,
      );
      // 2:05 and more (as long as the page took) as on the server; the kiosk's clock would say 12:05 or 0:00.
      await screen.waitForText('alarm-elapsed', /^\d+:\d\d$/);
      const first = await elapsedShown(screen, start, 'first shown');
      // And counting, still on the server's time.
      await eventually(
        () => screen.text('alarm-elapsed'),
        (text) => seconds(text) > first,
        'the elapsed time to count on',
      );
      await elapsedShown(screen, start, 'later');
      assert.is(await screen.count('alarm-ended'), 0, 'the running alarm is not shown as ended');
      assert.is(await screen.count('standby'), 0);
      assert.equal(screen.errors, []);
    },
  );
}

clock(
  'on a kiosk 10 minutes behind, a cleared alarm shows ENDED for standbyDelay (server time), then ' +
    "standby with the server's clock",
  async (ctx) => {
    const id = await newMonitor(ctx, { standbyDelay: 2 });
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, alarm(52, 'TH Verkehrsunfall', 1, 2));
    const screen = await openWall(
      ctx,
      id,
      LANDSCAPE,
      `${kioskClockOff(-TEN_MINUTES)}\n${recordSeen(['alarm-ended', 'standby'])}`,
    );
    await screen.page.getByTestId('alarm-event').waitFor({ timeout: WAIT_MS });
    await write(ctx, 'POST', `/api/v1/monitor/${id}/data/alarming`, {});
    // On the kiosk's clock the 2 s would end ten minutes late.
    await screen.page.getByTestId('standby').waitFor({ timeout: WAIT_MS });
    // ENDED came first, however briefly a busy test process could have looked.
    const seen = await seenIn(screen);
    assert.ok(
      seen['alarm-ended'] && seen.standby && seen['alarm-ended'].at <= seen.standby.at,
      `ENDED before standby: ${JSON.stringify(seen)}`,
    );
    // The standby clock is the server's (this machine's) time, not the kiosk's ten minutes earlier.
    const before = Date.now();
    const shown = await screen.text('standby-clock');
    const after = Date.now();
    const expected = new Set<string>();
    for (let t = before - SLACK_MS; t < after; t += 30_000) expected.add(clockText(t).hm);
    expected.add(clockText(after).hm);
    assert.ok(expected.has(shown.slice(0, 5)), `standby clock ${shown}, server ${[...expected].join(' or ')}`);
    assert.equal(screen.errors, []);
  },
);

clock.run();
