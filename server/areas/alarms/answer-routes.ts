// The answer links' operations AN1 and AN2 (docs/alarms.md "Answering without the app"): the page at
// /a/<token> reads the alarm and sends the member's answer with them, without a credential. The token
// travels in the path; the access log records the route's pattern only, never the path itself.
import { AN2Body, AnswerLinkView, AnswerTokenParams } from '../../../schemas/answer-links.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AnswerLinks } from './answer-links.js';

const params = { schema: AnswerTokenParams, message: 'token missing or in wrong format' };
// Generous: members behind one carrier's shared address answer in the same minute; a token's 96-bit
// signature is not guessed at any rate.
const PER_MINUTE = 120;
const LIMITS =
  `An unknown, expired or spent token answers 404 \`invalid_code\` alike. Limited to ${PER_MINUTE} per minute ` +
  'and client address.';

/** The answer links' operation declarations. */
export function answerLinkOperations(links: AnswerLinks): Operation[] {
  return [
    defineOperation({
      label: 'AN1',
      operationId: 'getAnswerLink',
      method: 'get',
      path: '/api/v1/answer/:token',
      summary: 'The alarm an answer link (in the alarm SMS) answers, and the member’s answer so far (no credential)',
      description:
        'The token of `<PUBLIC_URL>/a/<token>`: valid while the alarm runs, and shown (read only) for an hour ' +
        `after it ended; at most 24 hours, and only while the member belongs to the organization. ${LIMITS}`,
      public: true,
      perMinute: PER_MINUTE,
      params,
      response: { status: 200, schema: AnswerLinkView, description: 'The alarm and his answer' },
      errors: [400, 404],
      handler: ({ params }) => links.view(params.token),
    }),
    defineOperation({
      label: 'AN2',
      operationId: 'answerByLink',
      method: 'post',
      path: '/api/v1/answer/:token',
      summary: 'Answer the alarm of an answer link: coming (with travel minutes) or not (no credential)',
      description:
        'Counts as the member’s answer, as A10 and A11 do: his latest answer counts, whichever way it came ' +
        `(app, link, reply SMS, call keys). Once the alarm ended: 409 \`alarm_ended\`. ${LIMITS}`,
      public: true,
      perMinute: PER_MINUTE,
      params,
      body: { schema: AN2Body, message: 'Answer in wrong format or required field missing' },
      response: { status: 200, schema: AnswerLinkView, description: 'The alarm and his answer as recorded' },
      errors: [400, 404, 409, 413, 415],
      handler: ({ params, body }) => links.answer(params.token, body),
    }),
  ];
}
