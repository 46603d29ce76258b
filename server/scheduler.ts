// Every periodic job of a process in one place (docs/operating.md "Periodic jobs"): the composition root
// (server/service.ts) owns one Scheduler, the parts register their jobs on it, and shutdown stops them
// all and waits for the runs in flight. A job runs again a period after its last run ended, so a slow
// run never overlaps the next; a failed run is logged with the job's name and counted, and the job goes
// on. /metrics shows each job's runs, failures, last run and its duration.

/** Where a failed run is told (a pino logger, or a line printer). */
export interface SchedulerLog {
  warn(details: object, message: string): void;
}

/** A job's period: fixed, or read before each wait (a setting that may change). */
export type Period = number | (() => number);

/** What /metrics and the tests see of a job. */
export interface JobStatus {
  name: string;
  runs: number;
  failures: number;
  /** When the last run ended (ms since the epoch), or null before the first. */
  lastRunAt: number | null;
  lastDurationMs: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
}

interface Job extends JobStatus {
  periodMs: Period;
  run: () => Promise<unknown> | unknown;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

/** Runs named periodic jobs until stopped. */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private started = false;
  private stopped = false;

  constructor(private readonly log: SchedulerLog) {}

  /**
   * Runs `run` every `periodMs` (timed from the end of its last run) once the scheduler has started;
   * a job registered after the start is started at once. Names are unique: they label the metrics.
   */
  every(name: string, periodMs: Period, run: () => Promise<unknown> | unknown): void {
    if (this.jobs.has(name)) throw new Error(`a periodic job named ${name} is already scheduled`);
    const job: Job = {
      name,
      periodMs,
      run,
      timer: null,
      running: null,
      runs: 0,
      failures: 0,
      lastRunAt: null,
      lastDurationMs: null,
      lastFailureAt: null,
      lastError: null,
    };
    this.jobs.set(name, job);
    if (this.started && !this.stopped) this.wait(job);
  }

  /** True once stop() was called: the process is stopping. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Starts every job registered so far. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs.values()) this.wait(job);
  }

  /** Runs a job now, outside its rhythm (a test, or a part that needs it at once); waits for it. */
  async runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no periodic job named ${name}`);
    await (job.running ?? this.runJob(job, false));
  }

  /** Stops every job: no new run starts, and the runs in flight are waited for. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) if (job.timer) clearTimeout(job.timer);
    await Promise.allSettled([...this.jobs.values()].map((job) => job.running));
  }

  /** Every job's runs, failures and last run, in the order they were registered. */
  status(): JobStatus[] {
    return [...this.jobs.values()].map(
      ({ name, runs, failures, lastRunAt, lastDurationMs, lastFailureAt, lastError }) => ({
        name,
        runs,
        failures,
        lastRunAt,
        lastDurationMs,
        lastFailureAt,
        lastError,
      }),
    );
  }

  private wait(job: Job): void {
    const ms = typeof job.periodMs === 'function' ? job.periodMs() : job.periodMs;
    job.timer = setTimeout(() => void this.runJob(job, true), ms);
    // A process ends when its work is done, whatever its periodic jobs would do next.
    job.timer.unref();
  }

  private runJob(job: Job, rescheduled: boolean): Promise<void> {
    job.timer = null;
    const started = performance.now();
    const running = (async () => {
      try {
        await job.run();
      } catch (err) {
        job.failures++;
        job.lastFailureAt = Date.now();
        job.lastError = err instanceof Error ? err.message : String(err);
        this.log.warn({ err, job: job.name }, `periodic job ${job.name} failed; it runs again in its next period`);
      } finally {
        job.runs++;
        job.lastRunAt = Date.now();
        job.lastDurationMs = performance.now() - started;
        job.running = null;
        if (rescheduled && !this.stopped) this.wait(job);
      }
    })();
    job.running = running;
    return running;
  }
}
