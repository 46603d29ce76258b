// What an operator relies on (issue 12): /metrics in Prometheus text that moves with requests and
// screens, optionally behind a bearer token; the /docs page rendering offline in Chromium; descriptive
// operationIds — over the real wire.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { launchChromium } from './helpers/browser.js';
import { client, request } from './helpers/http.js';
import { connectScreen, WAIT_MS } from './helpers/screen.js';
import { eventually } from './helpers/fleet.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

interface Ctx {
  svc: TestService;
  org: OrgFixture;
  monitorId: number;
}

const ops = suite<Ctx>('operating it: metrics, docs, operationIds', {} as Ctx);

ops.before(async (ctx) => {
  ctx.svc = await startTestService();
  ctx.org = await createOrg(ctx.svc);
  ctx.monitorId = (
    await client(ctx.svc.url, { apiKey: ctx.org.apiKey }).post('/api/v1/monitor', {
      name: 'Wache',
      organizationID: ctx.org.orgId,
    })
  ).body.id;
});
ops.after(async (ctx) => {
  await ctx.svc.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format strictly: every line is a comment, HELP/TYPE, or a sample. */
function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/.exec(line);
    assert.ok(match, `not a Prometheus line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match![3] ?? '').match(/[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"/g) ?? []) {
      const at = pair.indexOf('=');
      labels[pair.slice(0, at)] = pair.slice(at + 2, -1);
    }
    samples.push({ name: match![1], labels, value: Number(match![4]) });
  }
  return samples;
}

async function scrape(ctx: Ctx): Promise<Sample[]> {
  const res = await request(ctx.svc.url, 'GET', '/metrics');
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'text/plain');
  return parsePrometheus(res.body);
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

ops('/metrics is Prometheus text whose request counters, latencies and hub gauges move', async (ctx) => {
  const before = await scrape(ctx);
  for (const name of [
    'alarmhub_process_cpu_user_seconds_total',
    'alarmhub_nodejs_eventloop_lag_seconds',
    'alarmhub_database_up',
    'alarmhub_redis_up',
  ]) {
    assert.ok(
      before.some((s) => s.name === name),
      `${name} present`,
    );
  }
  assert.is(value(before, 'alarmhub_database_up'), 1);
  assert.is(value(before, 'alarmhub_redis_up'), -1, 'no REDIS_URL in this test');
  const api = client(ctx.svc.url, { apiKey: ctx.org.apiKey });
  for (let i = 0; i < 3; i++) assert.is((await api.get(`/api/v1/monitor/${ctx.monitorId}`)).status, 200);
  assert.is((await api.get('/api/v1/monitor/999999')).status, 404);
  const screen = await connectScreen(ctx.svc.url, ctx.org.apiKey);
  await screen.subscribe(ctx.monitorId);
  await api.post(`/api/v1/monitor/${ctx.monitorId}/data/alarming`, { event: 'Brand' });
  await screen.waitFor(() => screen.version === 1, WAIT_MS, 'the patch');
  const after = await scrape(ctx);
  screen.close();
  const count = (s: Sample[], labels: Record<string, string>) => value(s, 'alarmhub_http_requests_total', labels);
  assert.is(count(after, { label: 'M4', status: '200' }) - count(before, { label: 'M4', status: '200' }), 3);
  assert.is(count(after, { label: 'M4', status: '404' }) - count(before, { label: 'M4', status: '404' }), 1);
  const timed = (s: Sample[]) =>
    value(s, 'alarmhub_http_request_duration_seconds_count', { label: 'M4', method: 'GET' });
  assert.is(timed(after) - timed(before), 4, 'every M4 request timed once, whatever its status');
  assert.is(value(after, 'alarmhub_hub_connections') - value(before, 'alarmhub_hub_connections'), 1);
  assert.is(value(after, 'alarmhub_hub_subscriptions') - value(before, 'alarmhub_hub_subscriptions'), 1);
  assert.is(
    value(after, 'alarmhub_hub_patches_emitted_total') - value(before, 'alarmhub_hub_patches_emitted_total'),
    1,
  );
  assert.is(
    value(after, 'alarmhub_hub_write_to_emit_seconds_count') -
      value(before, 'alarmhub_hub_write_to_emit_seconds_count'),
    1,
  );
  assert.ok(value(after, 'alarmhub_hub_snapshots_sent_total', { reason: 'subscribe' }) >= 1);
  assert.not.ok(
    after.some((s) => 'organization' in s.labels || 'org' in s.labels || 'monitor' in s.labels),
    'no IDs as label values',
  );
});

ops("/metrics shows each periodic job's runs, failures, last run and its duration", async () => {
  // Short periods, so that every job has run within moments.
  const svc = await startTestService({ HUB_HEARTBEAT_MS: '200', HUB_RESYNC_MS: '200', ALARM_OUTBOX_SWEEP_MS: '200' });
  try {
    // Every job the service runs, named as docs/operating.md "Periodic jobs" lists them.
    const jobs = [
      'hub-peers-heartbeat',
      'monitor-resync',
      'screen-health-sweep',
      'credential-recheck',
      'restore-check',
      'alarm-outbox-sweep',
    ];
    // Each has run at least once (periods are short in tests; waited for, not assumed).
    const samples = await eventually(
      () => scrape({ svc } as Ctx),
      (s) => jobs.every((job) => value(s, 'alarmhub_job_runs_total', { job }) >= 1),
      'every periodic job to have run',
    );
    for (const job of jobs) {
      assert.ok(value(samples, 'alarmhub_job_last_run_timestamp_seconds', { job }) > Date.now() / 1000 - 3600, job);
      assert.ok(
        samples.some((s) => s.name === 'alarmhub_job_last_duration_seconds' && s.labels.job === job),
        job,
      );
      assert.is(value(samples, 'alarmhub_job_failures_total', { job }), 0, `${job} never failed`);
    }
    assert.equal(
      svc.scheduler
        .status()
        .map((j) => j.name)
        .filter((name) => !jobs.includes(name)),
      [
        'screen-pairing-sweep',
        'alarm-answer-sweep',
        'alarm-incident-sweep',
        'things-rule-cooldown-sweep',
        'people-sweep',
        'input-mail-watchers',
      ],
      'no job the docs do not name',
    );
  } finally {
    await svc.close();
  }
});

ops('METRICS_TOKEN: /metrics answers 401 without the bearer token and 200 with it', async () => {
  const svc = await startTestService({ METRICS_TOKEN: 'scrape-secret' });
  try {
    const without = await request(svc.url, 'GET', '/metrics');
    assert.is(without.status, 401);
    assert.is(without.headers.get('www-authenticate'), 'Bearer');
    assert.is((await request(svc.url, 'GET', '/metrics', { headers: { Authorization: 'Bearer wrong' } })).status, 401);
    assert.is(
      (await request(svc.url, 'GET', '/metrics', { headers: { Authorization: 'Bearer scrape-secret' } })).status,
      200,
    );
  } finally {
    await svc.close();
  }
});

ops(
  'every operation has a descriptive, unique operationId and keeps its label in x-label and its summary',
  async (ctx) => {
    const doc = (await request(ctx.svc.url, 'GET', '/openapi.json')).body;
    const operations = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    const ids = operations.map((o) => o.operationId);
    assert.is(new Set(ids).size, ids.length, 'unique');
    for (const o of operations) {
      assert.ok(o['x-label'], JSON.stringify(o).slice(0, 80));
      assert.match(o.operationId, /^[a-z][A-Za-z]+$/, `${o['x-label']}: ${o.operationId}`);
      assert.ok(o.summary.startsWith(`${o['x-label']}: `), o.summary);
    }
    assert.is(doc.paths['/api/v1/things/entities/{uuid}/records/bulk'].post.operationId, 'bulkRecords');
    assert.is(doc.paths['/api/v1/sms/disabled'].get.operationId, 'getSmsDisabled');
    const m7 = doc.paths['/api/v1/monitor/{monitor_id}/data/alarming'];
    assert.is(m7.post.operationId, 'setMonitorAlarmingData');
    assert.is(m7.put.operationId, 'setMonitorAlarmingDataWithPut');
  },
);

ops('/docs renders in Chromium without any network but this service and lists every operation label', async (ctx) => {
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(ctx.svc.url)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await page.goto(`${ctx.svc.url}/docs`);
    await page.waitForSelector('.opblock-summary-description', { timeout: 20_000 });
    const doc = (await request(ctx.svc.url, 'GET', '/openapi.json')).body;
    const labels = Object.values(doc.paths).flatMap((p: any) =>
      Object.values(p).map((o: any) => o['x-label'] as string),
    );
    // Swagger UI renders a long document's operations as they scroll into view: read them scrolling
    // down, a frame after each step, again until every label was seen (or the time is up).
    const summaries = new Set<string>();
    const unseen = () =>
      [...new Set(labels)].filter((label) => ![...summaries].some((s) => s.startsWith(`${label}: `)));
    for (const deadline = Date.now() + 20_000; unseen().length > 0 && Date.now() < deadline;) {
      await page.evaluate(() => window.scrollTo(0, 0));
      for (let last = -1; ;) {
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const shown = await page.$$eval('.opblock-summary-description', (els) => els.map((e) => e.textContent ?? ''));
        for (const summary of shown) summaries.add(summary);
        const y = await page.evaluate(() => (window.scrollBy(0, window.innerHeight / 2), window.scrollY));
        if (y === last) break;
        last = y;
      }
    }
    for (const label of new Set(labels))
      assert.ok(
        [...summaries].some((s) => s.startsWith(`${label}: `)),
        `${label} on the page`,
      );
    assert.equal(outside, [], 'nothing fetched from elsewhere');
  } finally {
    await browser?.close();
  }
});

ops.run();
