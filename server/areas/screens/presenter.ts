// Never send a model: the public shape of a screen (docs/hub.md "The screen fleet").
import type { ScreenDoc } from './models.js';

/** A screen as REST presents it. */
export interface ScreenView {
  id: number;
  name: string;
  monitorId: number;
  online: boolean;
  lastSeen: string | null;
  versionShown: number | null;
  pageVersion: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** The public shape of a stored screen. */
export function presentScreen(doc: ScreenDoc): ScreenView {
  return {
    id: Number(doc._id),
    name: doc.name,
    monitorId: doc.monitorId,
    online: doc.online,
    lastSeen: doc.lastSeen?.toISOString() ?? null,
    versionShown: doc.versionShown,
    pageVersion: doc.pageVersion,
    userAgent: doc.userAgent,
    createdAt: doc.createdAt.toISOString(),
  };
}
