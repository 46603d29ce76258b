// The baseline of the REST figures: bare Koa routes doing the same database work as M4 (read a monitor)
// and M8 (append an alarming patch to its data) — without authentication, validation, rate limits,
// logging, metrics or the hub.
import Koa from 'koa';
import Router from '@koa/router';

const dist = '../../dist/server';
const { openDatabase } = (await import(`${dist}/db/database.js`)) as typeof import('../../server/db/database.js');
const { monitorModels } = (await import(
  `${dist}/areas/monitor/models.js`
)) as typeof import('../../server/areas/monitor/models.js');
const { MonitorStore } = (await import(
  `${dist}/areas/monitor/store.js`
)) as typeof import('../../server/areas/monitor/store.js');
const { applyWrite } = (await import(
  `${dist}/../common/monitor-data.js`
)) as typeof import('../../common/monitor-data.js');

const db = await openDatabase(process.env.BENCH_MONGODB_URI!, [monitorModels]);
const { Monitor } = monitorModels(db);
const store = new MonitorStore(db);
const router = new Router();
router.get('/monitor/:id', async (ctx) => {
  ctx.body = await Monitor.findById(ctx.params.id).lean();
});
router.patch('/monitor/:id/data/alarming', async (ctx) => {
  const payload = { positiveResponses: 3, awaitingResponses: 7 };
  const next = await store.appendData(Number(ctx.params.id), (head) =>
    applyWrite(head.body, { section: 'alarming', op: 'patch', payload, at: new Date().toISOString() }),
  );
  ctx.body = { message: `saved (version ${next.n})` };
});
const koa = new Koa();
koa.use(router.routes());
const server = koa.listen(0, '127.0.0.1', () =>
  process.send?.({ listening: (server.address() as { port: number }).port }),
);
process.on('message', (message: { stop?: true }) => message.stop && process.exit(0));
