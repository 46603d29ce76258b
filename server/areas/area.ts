// An area declares itself in one manifest (defineArea, in its folder's area.ts): its collections, its
// schemas, how it is built and its operations. server/areas/index.ts lists the manifests in build order;
// from that one list come the database's model sets, the validator's schemas, the router's operations,
// the ESLint owner list (eslint.config.ts) and the check of docs/storage.md's table. README "An area,
// from label to store" walks through adding one.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { ModelSet } from '../db/models.js';
import type { Limits } from '../http/limits.js';
import type { PublicUrl } from '../http/public-url.js';
import type { Operation } from '../http/operation.js';
import type { Schema } from '../http/validation.js';
import type { HubEvents, MonitorEvents } from '../hub/events.js';
import type { MonitorSource } from '../hub/ports.js';
import type { Metrics } from '../metrics.js';
import type { Scheduler } from '../scheduler.js';

/**
 * What each area offers the others once built, by its name. Each manifest adds its own entry by
 * declaration merging (`declare module '../area.js' { interface AreaParts { … } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the manifests (see above)
export interface AreaParts {}

/** An area's name: its folder under server/areas/. */
export type AreaName = keyof AreaParts & string;

/** What every area is built from (server/service.ts makes it). */
export interface AreaContext {
  config: Config;
  db: Database;
  log: Logger;
  limits: Limits;
  metrics: Metrics;
  /** Where an area's periodic jobs run; the service starts and stops them all. */
  scheduler: Scheduler;
  /** Where people reach the service (invitation links, the session cookie). */
  publicUrl: PublicUrl;
  /** The hub's broadcasts (events to organizations, screen commands, revocations, water changes). */
  events: HubEvents;
  /** A monitor's data on the hub: the hub builds its live side on the monitor area's source of monitors. */
  liveMonitors(source: MonitorSource): MonitorEvents;
  /**
   * The parts of another area. An area built earlier in the list is there at once; a later one only
   * once every area is built: call it from what runs later (a request, a job), never during the build.
   */
  need<K extends AreaName>(area: K): AreaParts[K];
}

/** An area's manifest. */
export interface Area<K extends AreaName = AreaName> {
  name: K;
  /** Its collections (docs/storage.md "Who owns which collection"), registered when the database opens. */
  models: ModelSet[];
  /** Areas whose collections it builds its own from (ESLint lets it import their model sets). */
  modelsFrom?: AreaName[];
  /** Its schema modules (schemas/*.ts): every exported object with a `$id` is compiled at boot. */
  schemas: Array<Record<string, unknown>>;
  build(ctx: AreaContext): AreaParts[K];
  operations(parts: AreaParts[K]): Operation[];
  /**
   * Finishes the area's background work when the service stops (after it stopped accepting requests and
   * its periodic jobs, before the hub, Redis and the database close): no new work starts, the work in
   * flight is waited for. Areas close in the reverse of the list's order.
   */
  close?(parts: AreaParts[K]): Promise<void>;
}

/** Declares an area (see the file's head). */
export function defineArea<K extends AreaName>(area: Area<K>): Area<K> {
  return area;
}

/** The schemas (objects with a `$id`) among a schema module's exports. */
export function schemasOf(modules: Array<Record<string, unknown>>): Schema[] {
  return modules.flatMap((m) =>
    Object.values(m).filter(
      (v): v is Schema => typeof v === 'object' && v !== null && typeof (v as Schema).$id === 'string',
    ),
  );
}

/** The built areas: their parts by name, every operation in the list's order, and how to close them. */
export interface BuiltAreas {
  parts: Partial<AreaParts>;
  operations: Operation[];
  /** Closes every area that has background work, the last built first. */
  close(): Promise<void>;
}

/** Builds every area in the list's order. */
export function buildAreas(list: readonly Area[], ctx: Omit<AreaContext, 'need'>): BuiltAreas {
  const parts: Partial<Record<AreaName, unknown>> = {};
  const context: AreaContext = {
    ...ctx,
    need: (name) => {
      const built = parts[name];
      if (built === undefined) throw new Error(`area ${name} is not built yet (server/areas/index.ts orders them)`);
      return built as AreaParts[typeof name];
    },
  };
  const built = list.map((area) => {
    const own = area.build(context);
    parts[area.name] = own;
    return { area, own };
  });
  return {
    parts: parts as Partial<AreaParts>,
    operations: built.flatMap(({ area, own }) => area.operations(own)),
    async close() {
      for (const { area, own } of [...built].reverse()) await area.close?.(own);
    },
  };
}
