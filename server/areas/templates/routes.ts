// The alarm templates' operations TP1–TP3 (docs/api.md "Alarm templates (TP1–TP3)").
import {
  AlarmTemplate,
  AlarmTemplateList,
  TP1Body,
  TP2Query,
  TP3Body,
  TemplateDeleted,
  TemplateIdParams,
} from '../../../schemas/templates.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { TemplateCommands } from './commands.js';

const TEMPLATE = 'Alarm template in wrong format or required field missing';
const params = { schema: TemplateIdParams, message: 'templateId missing or in wrong format' };

/** The alarm templates' operation declarations. */
export function templateOperations(templates: TemplateCommands): Operation[] {
  return [
    defineOperation({
      label: 'TP1',
      operationId: 'createAlarmTemplate',
      method: 'post',
      path: '/api/v1/alarm-templates',
      summary: 'Create an alarm template: what an alarm raised by a call PIN, a pager code or a rule shows',
      description:
        'Organization admins and the API key of organizationID. `channels` and `monitorIds` absent: every ' +
        'channel, every monitor of the organization. Answers 201 with the assigned ID.',
      body: { schema: TP1Body, message: TEMPLATE },
      response: { status: 201, schema: AlarmTemplate, description: 'The created template' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => templates.create(actor, body),
    }),
    defineOperation({
      label: 'TP2',
      operationId: 'listAlarmTemplates',
      method: 'get',
      path: '/api/v1/alarm-templates',
      summary: "List an organization's alarm templates (members read), in ID order",
      description: 'Members, admins and the API key of the organization read; another organization is a 403.',
      query: { schema: TP2Query, message: 'organization_id is missing or in wrong format' },
      response: { status: 200, schema: AlarmTemplateList, description: "The organization's templates" },
      errors: [400, 403],
      handler: ({ actor, query }) => templates.list(actor, query.organization_id),
    }),
    defineOperation({
      label: 'TP3',
      operationId: 'getAlarmTemplate',
      method: 'get',
      path: '/api/v1/alarm-templates/:templateId',
      summary: 'Get an alarm template',
      description: "Anyone of the template's organization reads it; a template of another organization is 404.",
      params,
      response: { status: 200, schema: AlarmTemplate, description: 'The template' },
      errors: [400, 404],
      handler: ({ actor, params }) => templates.get(actor, params.templateId),
    }),
    defineOperation({
      label: 'TP3',
      operationId: 'replaceAlarmTemplate',
      method: 'put',
      path: '/api/v1/alarm-templates/:templateId',
      summary: 'Replace an alarm template (organization admins and the API key)',
      description:
        "Every field is replaced; organizationID must be the template's own (400). Alarms raised with it " +
        'keep what it said then.',
      params,
      body: { schema: TP3Body, message: TEMPLATE },
      response: { status: 200, schema: AlarmTemplate, description: 'The template as stored' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => templates.update(actor, params.templateId, body),
    }),
    defineOperation({
      label: 'TP3',
      operationId: 'deleteAlarmTemplate',
      method: 'delete',
      path: '/api/v1/alarm-templates/:templateId',
      summary: 'Delete an alarm template (organization admins and the API key)',
      description:
        'A call configuration that still names it raises its alarm with the fallback keyword ("Alarm per ' +
        'Telefon"). Deleting it again is 404.',
      params,
      response: { status: 200, schema: TemplateDeleted, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => templates.remove(actor, params.templateId),
    }),
  ];
}
