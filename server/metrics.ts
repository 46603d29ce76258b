// Prometheus metrics (prom-client), one registry per running service. Label values are bounded sets
// only — operation labels (A1…T13, F1…F8), methods, status codes — never organization or monitor IDs,
// whose number has no bound; one organization's load is read from the access log instead, whose lines
// carry the credential's organization and token.
import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobStatus } from './scheduler.js';

/** The service's metrics and what updates them. */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'label' | 'method' | 'status'>;
  private readonly duration: Histogram<'label' | 'method'>;
  private readonly patches: Counter;
  private readonly patchDelay: Histogram;
  private readonly snapshots: Counter<'reason'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'alarmhub_' });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'alarmhub_http_requests_total',
      help: 'HTTP requests by operation label (A1…T13, F1…F8; "none" for other routes), method and status',
      labelNames: ['label', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'alarmhub_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by operation label and method',
      labelNames: ['label', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.patches = new Counter({
      name: 'alarmhub_hub_patches_emitted_total',
      help: 'Monitor patches this process sent to its screens (once per room, whatever its size)',
      registers,
    });
    this.patchDelay = new Histogram({
      name: 'alarmhub_hub_write_to_emit_seconds',
      help: 'From a data write (its server time) to the patch leaving this process for its screens',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.snapshots = new Counter({
      name: 'alarmhub_hub_snapshots_sent_total',
      help: 'Whole monitor states sent to screens: on subscribe, or to a room that fell behind (resync)',
      labelNames: ['reason'],
      registers,
    });
  }

  /** Koa middleware: counts and times every request under its operation label. */
  http() {
    // The series of each label, method and status, bound once (bounded sets, see the top).
    const timings = new Map<string, { observe(seconds: number): void }>();
    const counts = new Map<string, { inc(): void }>();
    return async (ctx: Context, next: Next) => {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const label = String(ctx.state.label ?? 'none');
        const { method } = ctx;
        const status = String(ctx.status);
        const timing = `${label} ${method}`;
        const count = `${timing} ${status}`;
        if (!timings.has(timing)) timings.set(timing, this.duration.labels(label, method));
        if (!counts.has(count)) counts.set(count, this.requests.labels(label, method, status));
        timings.get(timing)!.observe(Number(process.hrtime.bigint() - started) / 1e9);
        counts.get(count)!.inc();
      }
    };
  }

  /** A patch left for a room; `at` is the write's server time. */
  patchEmitted(at: string): void {
    this.patches.inc();
    const ms = Date.now() - Date.parse(at);
    if (Number.isFinite(ms) && ms >= 0) this.patchDelay.observe(ms / 1000);
  }

  /** A snapshot went out. */
  snapshotSent(reason: 'subscribe' | 'resync'): void {
    this.snapshots.inc({ reason });
  }

  /** A gauge read when scraped: connected screens, subscriptions, Redis and database state. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.set(await read());
      },
    });
  }

  /** A counter read when scraped from a running total kept elsewhere. */
  counter(name: string, help: string, read: () => number): void {
    let last = 0;
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        const now = read();
        if (now > last) this.inc(now - last);
        last = now;
      },
    });
  }

  /** Each periodic job's runs, failures, last run and its duration (server/scheduler.ts), labelled by job. */
  jobs(read: () => JobStatus[]): void {
    const registers = [this.registry];
    const labelNames = ['job'];
    const totals: Array<[string, string, (job: JobStatus) => number]> = [
      ['alarmhub_job_runs_total', 'Runs of each periodic job on this process, failed ones included', (j) => j.runs],
      [
        'alarmhub_job_failures_total',
        'Runs of each periodic job on this process that failed (each is logged)',
        (j) => j.failures,
      ],
    ];
    for (const [name, help, value] of totals) {
      const last = new Map<string, number>();
      new Counter({
        name,
        help,
        labelNames,
        registers,
        collect() {
          for (const job of read()) {
            const now = value(job);
            this.inc({ job: job.name }, now - (last.get(job.name) ?? 0));
            last.set(job.name, now);
          }
        },
      });
    }
    const gauges: Array<[string, string, (job: JobStatus) => number | null]> = [
      [
        'alarmhub_job_last_run_timestamp_seconds',
        'When each periodic job last finished a run',
        (j) => j.lastRunAt && j.lastRunAt / 1000,
      ],
      [
        'alarmhub_job_last_duration_seconds',
        'How long the last run of each periodic job took',
        (j) => j.lastDurationMs && j.lastDurationMs / 1000,
      ],
      [
        'alarmhub_job_last_failure_timestamp_seconds',
        'When a run of each periodic job last failed (absent: never)',
        (j) => j.lastFailureAt && j.lastFailureAt / 1000,
      ],
    ];
    for (const [name, help, value] of gauges) {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          for (const job of read()) {
            const v = value(job);
            if (v !== null) this.set({ job: job.name }, v);
          }
        },
      });
    }
  }

  /** The text exposition format. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
