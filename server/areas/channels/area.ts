// What the app, sms and call areas share (docs/api.md "The app, sms and call areas"): owner scope and
// owner index, the disable flags and any-active, alarming configurations and numbers. It has no
// operations of its own; sms and call build their collections from its schemas.
import * as schemas from '../../../schemas/channels.js';
import { defineArea } from '../area.js';
import { ChannelFlags } from './flags.js';
import { channelModels } from './models.js';

/** What the channels area offers the others. */
export interface ChannelParts {
  flags: ChannelFlags;
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
  build: ({ db }) => ({ flags: new ChannelFlags(db) }),
  operations: () => [],
});
