// People's operations P1–P9 (docs/people.md).
import {
  InvitationBody,
  InvitationCreated,
  JoinBody,
  Joined,
  Member,
  MemberList,
  MemberRoleBody,
  OrganizationMemberParams,
  RosterImportBody,
  RosterImported,
  SessionView,
  SignInLink,
  SignedOut,
} from '../../../schemas/people.js';
import { StatusResult } from '../../../schemas/screens.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import { checkPersonalNumber, type PeopleCommands } from './commands.js';
import { numberProblems, rosterFromCsv } from './roster.js';

const params = { schema: OrganizationMemberParams, message: 'organizationId or userId missing or in wrong format' };

/** People's operation declarations. */
export function peopleOperations(people: PeopleCommands): Operation[] {
  return [
    defineOperation({
      label: 'P1',
      operationId: 'createInvitation',
      method: 'post',
      path: '/api/v1/invitations',
      summary: 'Invite a person to join the organization: a link (and its code) to hand over, valid 7 days, single use',
      description:
        'Organization admins and the API key. With `userId`, a member already there is invited to sign in ' +
        'on a new device (his role stays). The code is shown once; only its hash is stored.',
      body: { schema: InvitationBody, message: 'Invitation in wrong format or required field missing' },
      response: { status: 201, schema: InvitationCreated, description: 'The invitation' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, body }) => people.invite(actor, body),
    }),
    defineOperation({
      label: 'P2',
      operationId: 'join',
      method: 'post',
      path: '/api/v1/join',
      summary: 'Join with an invitation or a sign-in link (no credential): signs in and sets the session cookie',
      description:
        'A used, expired and unknown code answer the same 404 `invalid_code`. Limited to 30 per minute and ' +
        'client address, and to 10 wrong codes a minute per code prefix. A request from a page of another ' +
        'site is refused (403 `csrf`).',
      public: true,
      perMinute: 30,
      body: { schema: JoinBody, message: 'code missing or in wrong format' },
      response: {
        status: 201,
        schema: Joined,
        description: 'Signed in; the answer sets the HttpOnly cookie alarmhub_session',
        headers: { 'Set-Cookie': 'alarmhub_session=…; path=/; httponly; samesite=lax' },
      },
      errors: [400, 403, 404, 413, 415],
      handler: ({ ctx, body }) => people.join(ctx, body.code),
    }),
    defineOperation({
      label: 'P3',
      operationId: 'getSession',
      method: 'get',
      path: '/api/v1/session',
      summary: 'Who is signed in: the person and his organizations with his role in each',
      description:
        'A session, or a personal access token (the same person). An API key is no person: 403. With the ' +
        'session cookie, the answer sends the cookie again with 30 days to live (the session ends after 30 ' +
        'days unused).',
      response: { status: 200, schema: SessionView, description: 'The person' },
      errors: [403],
      handler: ({ ctx, actor }) => people.whoAmI(ctx, actor),
    }),
    defineOperation({
      label: 'P4',
      operationId: 'signOut',
      method: 'delete',
      path: '/api/v1/session',
      summary: 'Sign out: the session is void on every process at once, its sockets close',
      description: 'Only with the session cookie (a token is revoked with the admin command instead).',
      response: { status: 200, schema: SignedOut, description: 'Signed out; the cookie is cleared' },
      errors: [400, 403],
      handler: ({ ctx, actor }) => people.signOut(ctx, actor),
    }),
    defineOperation({
      label: 'P5',
      operationId: 'createSignInLink',
      method: 'post',
      path: '/api/v1/session/link',
      summary: 'A one-time link (valid 10 minutes) that signs this person in on another device',
      description:
        'Only with the session cookie: open the link (or scan its QR code) on the other device, and it has a ' +
        'session of its own. The code is shown once and signs in once.',
      response: { status: 201, schema: SignInLink, description: 'The link and its code' },
      errors: [400, 403],
      handler: ({ actor }) => people.signInLink(actor),
    }),
    defineOperation({
      label: 'P6',
      operationId: 'listMembers',
      method: 'get',
      path: '/api/v1/organizations/:organizationId/members',
      summary: "The organization's members: role, units, when each joined and was last seen",
      description: 'Every member and the API key read it; another organization is a 403.',
      params,
      response: { status: 200, schema: MemberList, description: 'The members, by name' },
      errors: [400, 403],
      handler: ({ actor, params }) => people.members(actor, params.organizationId),
    }),
    defineOperation({
      label: 'P7',
      operationId: 'changeMemberRole',
      method: 'patch',
      path: '/api/v1/organizations/:organizationId/members/:userId',
      summary: "Change a member's role; the last admin cannot be demoted (409 last_admin)",
      description: "An admin of the organization (a person). The member's sockets reconnect with the new role.",
      params,
      body: { schema: MemberRoleBody, message: 'role missing or not one of admin, member' },
      response: { status: 200, schema: Member, description: 'The member' },
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, params, body }) => people.changeRole(actor, params.organizationId, params.userId!, body.role),
    }),
    defineOperation({
      label: 'P8',
      operationId: 'removeMember',
      method: 'delete',
      path: '/api/v1/organizations/:organizationId/members/:userId',
      summary: 'Remove a member: his sessions and tokens lose the organization at once, on every process',
      description: 'An admin of the organization (a person). The last admin cannot be removed (409 last_admin).',
      params,
      response: { status: 200, schema: StatusResult, description: 'Removed' },
      errors: [400, 403, 404, 409],
      handler: ({ actor, params }) => people.remove(actor, params.organizationId, params.userId!),
    }),
    defineOperation({
      label: 'P9',
      operationId: 'importMembers',
      method: 'post',
      path: '/api/v1/organizations/:organizationId/members/import',
      summary:
        "Import a station's roster at once: members with their units, mobiles and phones, each with an invitation",
      description:
        'JSON `{members: [...]}` (at most 1,000) or `text/csv` with the header `name,role,mobile,phone,units` ' +
        '(columns in any order, units separated by `;`). Every line is checked first: any bad line answers ' +
        '400 naming every bad line (CSV: `line N: field`) and field, and nothing is created. Admins and the ' +
        'API key.',
      params,
      body: { schema: RosterImportBody, message: 'The roster has problems; nothing was imported' },
      bodyProblems: (body) => numberProblems((body as { members?: unknown })?.members, checkPersonalNumber),
      csv: {
        read: rosterFromCsv,
        example:
          'name,role,mobile,phone,units\nAlex Berger,admin,+491701234567,,HLF 20\nKim Sommer,,,+4922112345678,HLF 20;DLK 23\n',
      },
      response: { status: 201, schema: RosterImported, description: 'The members created, each with an invitation' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, params, body, ctx }) =>
        people.importRoster(
          actor,
          params.organizationId,
          body.members,
          (ctx.state.csvLine as ((path: string) => string) | undefined) ?? null,
        ),
    }),
  ];
}
