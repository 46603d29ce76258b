// Availability on the wall (docs/display.md "Configuration keys it understands", docs/hub.md "Availability on the wall"): a paired
// screen whose monitor shows it counts the members who can come, live as they say it; a monitor that
// does not show it, and another organization's monitor, answer the question with an error.
import * as assert from 'uvu/assert';
import { WAIT_MS } from './helpers/browser.js';
import { openPaired } from './helpers/fleet.js';
import { client } from './helpers/http.js';
import { connectScreen } from './helpers/screen.js';
import { createOrg } from './helpers/service.js';
import { suite } from './helpers/suite.js';
import { newMonitor, setUpWall, tearDownWall, type WallCtx } from './helpers/wall.js';

const wall = suite<WallCtx>('display: availability on the standby view', {} as WallCtx);

wall.before(setUpWall);
wall.after(tearDownWall);

wall('a paired screen counts the members who can come, live as they say it', async (ctx) => {
  const monitorId = await newMonitor(ctx, { configurationStandby: { showAvailability: true } });
  const { screen } = await openPaired(ctx, monitorId, 'Fahrzeughalle', '?lang=de');
  await screen.waitForText('availability-active', '0');
  await screen.waitForText('availability-inactive', '0');
  const member = client(ctx.service.url, { pat: ctx.org.member.token });
  const said = await member.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: true });
  assert.is(said.status, 200, JSON.stringify(said.body));
  await screen.waitForText('availability-active', '1');
  const admin = client(ctx.service.url, { pat: ctx.org.admin.token });
  await admin.put('/api/v1/availability', { organizationID: ctx.org.orgId, available: false });
  await screen.waitForText('availability-inactive', '1');
  assert.is(await screen.page.getByText('verfügbar', { exact: true }).count(), 1);
  // An until that passes: counted until then, and not after, without anyone writing.
  await member.put('/api/v1/availability', {
    organizationID: ctx.org.orgId,
    available: true,
    until: new Date(Date.now() + 2_000).toISOString(),
  });
  await screen.waitForText('availability-active', '0', WAIT_MS);
});

wall('a monitor that does not show it, and a stranger, are refused the counts', async (ctx) => {
  const plain = await newMonitor(ctx);
  const shown = await newMonitor(ctx, { configurationStandby: { showAvailability: true } });
  const own = await connectScreen(ctx.service.url, ctx.org.apiKey);
  const other = await createOrg(ctx.service);
  const stranger = await connectScreen(ctx.service.url, other.apiKey);
  try {
    const ask = (s: typeof own, monitorId: number) =>
      s.socket.timeout(WAIT_MS).emitWithAck('availability:watch', { monitorId });
    assert.is((await ask(own, plain)).error.error, 'not_configured');
    assert.is((await ask(own, shown)).data.organizationId, ctx.org.orgId);
    assert.ok(['not_found', 'forbidden'].includes((await ask(stranger, shown)).error.error));
    assert.is((await ask(own, 0)).error.error, 'invalid_body');
  } finally {
    own.close();
    stranger.close();
  }
});

wall.run();
