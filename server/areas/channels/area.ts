// What the app, sms and call areas share (docs/api.md "The app, sms and call areas"): owner scope and
// owner index, the disable flags and any-active, alarming configurations and numbers. It has no
// operations of its own; sms and call build their collections from its schemas.
import * as schemas from '../../../schemas/channels.js';
import { defineArea } from '../area.js';
import { ChannelFlags } from './flags.js';
import { channelModels } from './models.js';
import { usableTargets } from './owned.js';

/** What the channels area offers the others. */
export interface ChannelParts {
  flags: ChannelFlags;
  /** A member's devices, mobiles and phones an alarm of the organization may use (the alarms' deliveries). */
  targets: (ownerId: number, organizationId: number) => ReturnType<typeof usableTargets>;
}

declare module '../area.js' {
  interface AreaParts {
    channels: ChannelParts;
  }
}

export const channelsArea = defineArea({
  name: 'channels',
  models: [channelModels],
  schemas: [schemas],
  build: ({ db }) => ({
    flags: new ChannelFlags(db),
    targets: (ownerId, organizationId) => usableTargets(db, ownerId, organizationId),
  }),
  operations: () => [],
});
