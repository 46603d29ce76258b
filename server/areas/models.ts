// Every model set the database opens with (server/db/models.ts), so each index exists before the first
// request: identity's, then each area's from its manifest (server/areas/index.ts).
import type { ModelSet } from '../db/models.js';
import { identityModels } from '../identity/models.js';
import { areas } from './index.js';

/** The model sets of identity and every area. */
export const serviceModels: ModelSet[] = [identityModels, ...areas.flatMap((a) => a.models)];
