// Availability's operations W2, W3 (docs/people.md "Availability").
import {
  AvailabilityBody,
  AvailabilityParams,
  AvailabilitySummary,
  AvailabilityView,
} from '../../../schemas/availability.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AvailabilityCommands } from './commands.js';

export function availabilityOperations(availability: AvailabilityCommands): Operation[] {
  return [
    defineOperation({
      label: 'W2',
      operationId: 'setAvailability',
      method: 'put',
      path: '/api/v1/availability',
      summary: 'Say whether you can come: available or not, until a time or until changed',
      description:
        'The member himself (a session or his personal access token); an API key is no member (403). An ' +
        "`until` already past clears it (the answer says `available: null`). The organization's room gets " +
        '`availability:changed` with the new counts.',
      body: { schema: AvailabilityBody, message: 'Availability in wrong format or required field missing' },
      response: { status: 200, schema: AvailabilityView, description: 'What holds now' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => availability.set(actor, body),
    }),
    defineOperation({
      label: 'W3',
      operationId: 'listAvailability',
      method: 'get',
      path: '/api/v1/organizations/:organizationId/availability',
      summary: "Who can come: the organization's members with what each said, and the counts",
      description:
        'Members and the API key. A member who said nothing, or whose `until` has passed, counts as unknown; ' +
        '`nextChangeAt` says when the next `until` passes.',
      params: { schema: AvailabilityParams, message: 'organizationId missing or in wrong format' },
      response: { status: 200, schema: AvailabilitySummary, description: 'The members by name, and the counts' },
      errors: [400, 403],
      handler: ({ actor, params }) => availability.list(actor, params.organizationId),
    }),
  ];
}
