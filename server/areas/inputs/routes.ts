// The alarm inputs' operations IP1–IP6 and the pager door IN3 (docs/inputs.md; docs/api.md "Alarm inputs (IP1–IP6, IN3)").
import type { Context } from 'koa';
import { InboundAccepted } from '../../../schemas/alarms.js';
import {
  DocumentAccepted,
  IN3Body,
  IN3Query,
  IP1Body,
  IP2Query,
  IP3Body,
  IP5Text,
  Input,
  InputDeleted,
  InputDocumentList,
  InputIdParams,
  InputList,
  TryResult,
} from '../../../schemas/inputs.js';
import { conflict } from '../../errors.js';
import type { Actor } from '../../identity/actor.js';
import { DOCUMENT_LIMIT, DocumentBody } from '../../http/document-body.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { InputCommands } from './commands.js';
import { DOCUMENT_TYPES, type DocumentType } from './convert.js';
import type { InputDocuments } from './documents.js';
import type { InputIntake } from './intake.js';
import type { InputDoc } from './models.js';
import type { PagerDoor } from './pager.js';

const INPUT = 'Input in wrong format or required field missing';
const params = { schema: InputIdParams, message: 'inputId missing or in wrong format' };
const document = { types: DOCUMENT_TYPES, limitBytes: DOCUMENT_LIMIT };

export interface InputOperationParts {
  commands: InputCommands;
  documents: InputDocuments;
  intake: InputIntake;
  pager: PagerDoor;
  /** IN3's gateway check (the alarms area's, INBOUND_GATEWAY_TOKEN). */
  checkToken(presented: string | undefined): void;
}

// Documents are read by the imap and document inputs only.
function reading(input: InputDoc): InputDoc {
  if (input.kind === 'pager') throw conflict('wrong_input_kind', 'A pager input takes telegrams (IN3), not documents');
  return input;
}

// Who sent a document by IP4: the caller, as IP6 shows it.
const uploader = (actor: Actor) => (actor.kind === 'apikey' ? `API key ${actor.tokenId}` : `user ${actor.userId}`);

const arrived = (body: DocumentBody, actor: Actor) => ({
  body: body.bytes,
  type: body.type as DocumentType,
  from: uploader(actor),
});

/** The inputs' operation declarations. */
export function inputOperations({ commands, documents, intake, pager, checkToken }: InputOperationParts): Operation[] {
  return [
    defineOperation({
      label: 'IP1',
      operationId: 'createInput',
      method: 'post',
      path: '/api/v1/inputs',
      summary: 'Create an alarm input: an IMAP mailbox, a document upload, or pager codes',
      description:
        'Organization admins and the API key of organizationID. `settings` by `kind` (docs/inputs.md); an imap ' +
        'input needs its password, which is stored encrypted and answered as "********". imap and document ' +
        'inputs need a `profile` whose expressions compile. Answers 201 with the assigned ID.',
      body: { schema: IP1Body, message: INPUT },
      response: { status: 201, schema: Input, description: 'The created input' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => commands.create(actor, body),
    }),
    defineOperation({
      label: 'IP2',
      operationId: 'listInputs',
      method: 'get',
      path: '/api/v1/inputs',
      summary: "List an organization's alarm inputs (members read), in ID order",
      description:
        'Members, admins and the API key of the organization read; another organization is a 403. Each input with ' +
        'when it last received something and its last error; passwords masked.',
      query: { schema: IP2Query, message: 'organization_id is missing or in wrong format' },
      response: { status: 200, schema: InputList, description: "The organization's inputs" },
      errors: [400, 403],
      handler: ({ actor, query }) => commands.list(actor, query.organization_id),
    }),
    defineOperation({
      label: 'IP3',
      operationId: 'getInput',
      method: 'get',
      path: '/api/v1/inputs/:inputId',
      summary: 'Get an alarm input, with when it last received something and its last error',
      description: "Anyone of the input's organization reads it; an input of another organization is a 404.",
      params,
      response: { status: 200, schema: Input, description: 'The input' },
      errors: [400, 404],
      handler: ({ actor, params }) => commands.get(actor, params.inputId),
    }),
    defineOperation({
      label: 'IP3',
      operationId: 'replaceInput',
      method: 'put',
      path: '/api/v1/inputs/:inputId',
      summary: 'Replace an alarm input (organization admins and the API key)',
      description:
        "Every field is replaced; organizationID and kind must be the input's own (400). An imap password absent " +
        'or "********" keeps the stored one.',
      params,
      body: { schema: IP3Body, message: INPUT },
      response: { status: 200, schema: Input, description: 'The input as stored' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => commands.update(actor, params.inputId, body),
    }),
    defineOperation({
      label: 'IP3',
      operationId: 'deleteInput',
      method: 'delete',
      path: '/api/v1/inputs/:inputId',
      summary: 'Delete an alarm input (organization admins and the API key); the alarms it raised stay',
      description:
        'Its received documents go with it; an e-mail input is no longer watched within INPUT_IMAP_RECONCILE_MS.',
      params,
      response: { status: 200, schema: InputDeleted, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => commands.remove(actor, params.inputId),
    }),
    defineOperation({
      label: 'IP4',
      operationId: 'sendInputDocument',
      method: 'post',
      path: '/api/v1/inputs/:inputId/documents',
      summary: 'Send a document to an input: a fax, a scan, a PDF, a text or an e-mail (at most 20 MiB)',
      description:
        "Organization admins and the API key (a fax machine's or scanner's upload script, a mail server's pipe). " +
        'The body is the document, its Content-Type one of ' +
        DOCUMENT_TYPES.join(', ') +
        ". It is read (text; a PDF's text layer, else OCR in German; an e-mail's text part, else its PDF or " +
        "image), the profile tried on its text, and the alarm raised — or merged into the incident's running " +
        "alarm — before the answer: 202 with the document's entry in IP6, which says what became of it.",
      params,
      document,
      // A budget of its own: each document may cost the process a profile run (docs/inputs.md "Profiles").
      perMinute: 120,
      authorize: async ({ actor, params }) => reading(await commands.writable(actor, params.inputId)),
      // Its turn before the body is read: a flood of uploads waits (or is refused, 503) unread.
      admit: (_authorized, ctx) => intake.admit(ctx.request.type),
      response: { status: 202, schema: DocumentAccepted, description: 'Handled: see its entry in IP6' },
      errors: [400, 403, 404, 409, 413, 415],
      handler: async ({ actor, body, authorized }) => ({
        documentId: (await intake.take(authorized, arrived(body as DocumentBody, actor), { admitted: true }))
          .documentId,
      }),
    }),
    defineOperation({
      label: 'IP5',
      operationId: 'tryInput',
      method: 'post',
      path: '/api/v1/inputs/:inputId/try',
      summary: "Try an input's profile on a document or a text: what it would raise (raises nothing)",
      description:
        'Organization admins and the API key. The body is a document as for IP4, or JSON `{"text": …}`. ' +
        "Answers the text, each profile field's value and the alarm it would raise, or why none.",
      params,
      document,
      perMinute: 60,
      body: { schema: IP5Text, message: 'text is missing or in wrong format' },
      authorize: async ({ actor, params }) => reading(await commands.writable(actor, params.inputId)),
      admit: (_authorized, ctx) => intake.admit(ctx.request.type),
      response: { status: 200, schema: TryResult, description: 'What it would raise' },
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, body, authorized }) =>
        intake.tryIt(authorized, body instanceof DocumentBody ? arrived(body, actor) : (body as { text: string }), {
          admitted: true,
        }),
    }),
    defineOperation({
      label: 'IP6',
      operationId: 'listInputDocuments',
      method: 'get',
      path: '/api/v1/inputs/:inputId/documents',
      summary: 'What an input received, newest first (50): the text, and what became of it and why',
      description:
        "Members of the input's organization read it: each document's outcome (raised, merged, ignored, failed), " +
        'the alarm, the reason, and the first 20,000 characters of its text.',
      params,
      response: { status: 200, schema: InputDocumentList, description: 'Its documents' },
      errors: [400, 404],
      handler: async ({ actor, params }) => documents.list(await commands.readable(actor, params.inputId)),
    }),
    defineOperation({
      label: 'IN3',
      operationId: 'receivePager',
      method: 'post',
      path: '/api/v1/inbound/pager',
      summary: 'A pager telegram the radio decoder heard: POCSAG, ZVEI or FMS (header Gateway-Token)',
      description:
        'Raises the alarm of a pager input that knows the RIC (and sub-RIC) or ZVEI code; an FMS status 1–9 of ' +
        "a known vehicle goes to the organization's room and walls (`vehicle:status`). The answer is 202 " +
        'whether or not anything matched. 6,000 requests per minute per decoder address.',
      public: true,
      perMinute: 6_000,
      authorize: async ({ ctx }: { ctx: Context }) =>
        checkToken(ctx.headers['gateway-token'] === undefined ? undefined : ctx.get('Gateway-Token')),
      body: { schema: IN3Body, message: 'Pager telegram in wrong format or required field missing' },
      response: { status: 202, schema: InboundAccepted, description: 'Received' },
      errors: [400, 413, 415],
      handler: ({ body }) => pager.receive(body),
    }),
    defineOperation({
      label: 'IN3',
      operationId: 'receivePagerByUrl',
      method: 'get',
      path: '/api/v1/inbound/pager',
      summary:
        "IN3 as a URL, for decoders that can only call one (BOSWatch 3's http plugin): the fields as query parameters",
      description:
        'The same as the POST, the telegram in the query and the token in `token` when the decoder cannot send ' +
        'the Gateway-Token header (docs/inputs.md "Pager"). The access log names the route, never the query.',
      public: true,
      perMinute: 6_000,
      query: { schema: IN3Query, message: 'Pager telegram in wrong format or required field missing' },
      authorize: async ({ ctx }: { ctx: Context }) =>
        checkToken(
          ctx.headers['gateway-token'] !== undefined
            ? ctx.get('Gateway-Token')
            : typeof ctx.query.token === 'string'
              ? ctx.query.token
              : undefined,
        ),
      response: { status: 202, schema: InboundAccepted, description: 'Received' },
      errors: [400],
      handler: ({ query }) => {
        const { token: _token, ...telegram } = query;
        return pager.receive(telegram);
      },
    }),
  ];
}
