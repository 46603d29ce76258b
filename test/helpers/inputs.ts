// Alarm inputs for tests (docs/inputs.md): the profile that reads a dispatch centre's fax or mail, and
// a document input (IP1) with it.
import * as assert from 'uvu/assert';
import { client } from './http.js';
import type { OrgFixture, TestService } from './service.js';

/** "Stichwort: …", "Einsatznummer: …" and the rest, one per line, as the tests' faxes and mails say it. */
export const FAX_PROFILE = {
  fields: {
    event: '^Stichwort:\\s*(.+)$',
    dispatchNumber: '^Einsatznummer:\\s*(\\S+)',
    address: '^Einsatzort:\\s*(.+)$',
    message: '^Bemerkung:\\s*(.+)$',
    latitude: '^Koordinaten:\\s*([0-9.,]+)',
    longitude: '^Koordinaten:\\s*[0-9.,]+\\s*[,;/]\\s*([0-9.,]+)',
    units: '(?:^Einsatzmittel:|,)\\s*((?:HLF|DLK|RTW|ELW)\\s?[0-9/]+)',
  },
};

/** A document input of the organization (IP1 with its API key), `fields` over the defaults: its ID. */
export async function createDocumentInput(
  svc: TestService,
  org: OrgFixture,
  fields: Record<string, unknown> & { name: string },
): Promise<number> {
  const res = await client(svc.url, { apiKey: org.apiKey }).post('/api/v1/inputs', {
    organizationID: org.orgId,
    kind: 'document',
    settings: {},
    profile: FAX_PROFILE,
    channels: ['app'],
    active: true,
    ...fields,
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}
