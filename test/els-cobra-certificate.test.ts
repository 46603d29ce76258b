// E1 / E2 / DELETE of the integration's certificate set over the real wire: 401 → 400 → 403 → 404 → 200,
// with PEM material made by openssl.
import * as assert from 'uvu/assert';
import { expectBadRequest, expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { ELS, elsSuite, elsWording, pem } from './helpers/els-cobra.js';
import { as, matchesSchema, rejectsUnauthenticated } from './helpers/journal.js';

const CERT = `${ELS}/certificate`;
// The PEM envelope intact, its DER content damaged.
const corrupt = (text: string) =>
  text
    .split('\n')
    .map((line, i) => (i === 1 ? [...line].reverse().join('') : line))
    .join('\n');
const SECRETS_403 = "Reading integration secrets needs an organization admin or the organization's API key";

const e2 = elsSuite('E2 store certificate set');
rejectsUnauthenticated(e2, 'E2', 'PUT', (ctx) => `${CERT}/${ctx.a.orgId}`, { certificate: 'x', privateKey: 'y' });

e2(
  'E2 400 when organizationID is not a positive int64 in the path (or the query behind the 2019 placeholder)',
  async (ctx) => {
    const c = client(ctx.svc.url, as.key(ctx.a));
    const body = { certificate: pem().certificate, privateKey: pem().privateKey };
    for (const bad of [
      'abc',
      '0',
      '-1',
      '9007199254740993',
      '%7BorganizationID%7D',
      `%7BorganizationID%7D?organizationID=x`,
    ]) {
      const res = await c.put(`${CERT}/${bad}`, body);
      expectBadRequest(res, 'invalid_parameter', elsWording.organization, res.body.details?.[0]?.in);
      assert.ok(['path', 'query'].includes(res.body.details[0].in));
    }
    expectBadRequest(
      await c.put(`${CERT}/${ctx.a.orgId}?organizationID=${ctx.b.orgId}`, body),
      'invalid_parameter',
      elsWording.organization,
      'query',
      'organizationID',
    );
  },
);

e2('E2 400 when the body is missing, incomplete, or has an unknown field or another organizationId', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  const url = `${CERT}/${ctx.a.orgId}`;
  const ok = { certificate: pem().certificate, privateKey: pem().privateKey };
  expectBadRequest(await c.put(url), 'invalid_body', elsWording.certificate, 'body');
  expectBadRequest(
    await c.put(url, { certificate: ok.certificate }),
    'invalid_body',
    elsWording.certificate,
    'body',
    'privateKey',
  );
  expectBadRequest(
    await c.put(url, { privateKey: ok.privateKey }),
    'invalid_body',
    elsWording.certificate,
    'body',
    'certificate',
  );
  expectBadRequest(
    await c.put(url, { ...ok, passphrase: 'x' }),
    'invalid_body',
    elsWording.certificate,
    'body',
    'passphrase',
  );
  expectBadRequest(
    await c.put(url, { ...ok, organizationId: ctx.b.orgId }),
    'invalid_body',
    elsWording.certificate,
    'body',
    'organizationId',
  );
  expectBadRequest(
    await c.put(url, { ...ok, certificate: 'x'.repeat(16_385) }),
    'invalid_body',
    elsWording.certificate,
    'body',
    'certificate',
  );
});

e2('E2 400 on PEM that is not what it must be, naming the field but never echoing key material', async (ctx) => {
  const c = client(ctx.svc.url, as.key(ctx.a));
  const url = `${CERT}/${ctx.a.orgId}`;
  const { certificate, privateKey, leaf, caChain, otherKey, encryptedKey } = pem();
  const cases: Array<[Record<string, string>, string, string]> = [
    [{ certificate: 'not a certificate' }, 'certificate', 'must be one PEM certificate'],
    [{ certificate: certificate + leaf }, 'certificate', 'must be one PEM certificate'],
    [{ certificate: `garbage\n${certificate}` }, 'certificate', 'must be one PEM certificate'],
    [{ certificate: corrupt(certificate) }, 'certificate', 'must be one PEM certificate'],
    [{ certificate: privateKey }, 'certificate', 'must be one PEM certificate'],
    [{ caChain: 'chain' }, 'caChain', 'must be PEM certificates'],
    [{ caChain: caChain + privateKey }, 'caChain', 'must be PEM certificates'],
    [{ privateKey: certificate }, 'privateKey', 'must be one PEM private key'],
    [{ privateKey: privateKey + otherKey }, 'privateKey', 'must be one PEM private key'],
    [{ privateKey: encryptedKey }, 'privateKey', 'must not be encrypted (the service must use it unattended)'],
    [{ privateKey: corrupt(privateKey) }, 'privateKey', 'is not a readable private key'],
    [{ privateKey: otherKey }, 'privateKey', 'does not belong to the certificate'],
  ];
  for (const [change, field, problem] of cases) {
    const res = await c.put(url, { certificate, privateKey, ...change });
    expectBadRequest(res, 'invalid_body', elsWording.certificate, 'body', field);
    assert.is(res.body.details[0].problem, problem);
    assert.not.ok(JSON.stringify(res.body).includes(privateKey.split('\n')[1]), 'no key material in the answer');
  }
});

e2('E2 403 for a member and for another organization', async (ctx) => {
  const body = { certificate: pem().certificate, privateKey: pem().privateKey };
  expectError(await client(ctx.svc.url, as.member(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, body), 403, 'forbidden');
  for (const auth of [as.key(ctx.b), as.admin(ctx.b)])
    expectError(await client(ctx.svc.url, auth).put(`${CERT}/${ctx.a.orgId}`, body), 403, 'forbidden');
});

e2(
  'E2 200 stores a self-signed set (API key) and a CA-issued one with an RSA key and its chain (admin), replacing it',
  async (ctx) => {
    const { certificate, privateKey, leaf, leafKey, caChain } = pem();
    const first = await client(ctx.svc.url, as.key(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, {
      certificate,
      privateKey,
      organizationId: 0,
    });
    assert.is(first.status, 200, JSON.stringify(first.body));
    matchesSchema('ElsCobraCertificate', first.body);
    assert.equal(first.body, { organizationId: ctx.a.orgId, certificate, caChain: '', privateKey });
    const second = await client(ctx.svc.url, as.admin(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, {
      certificate: leaf,
      caChain,
      privateKey: leafKey,
      organizationId: ctx.a.orgId,
    });
    assert.is(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body, { organizationId: ctx.a.orgId, certificate: leaf, caChain, privateKey: leafKey });
    assert.equal((await client(ctx.svc.url, as.key(ctx.a)).get(`${CERT}/${ctx.a.orgId}`)).body, second.body);
  },
);

e2.run();

const e1 = elsSuite('E1 get certificate set');
rejectsUnauthenticated(e1, 'E1', 'GET', (ctx) => `${CERT}/${ctx.a.orgId}`);

e1('E1 400 on a bad organizationID', async (ctx) => {
  expectBadRequest(
    await client(ctx.svc.url, as.key(ctx.a)).get(`${CERT}/1e3`),
    'invalid_parameter',
    elsWording.organization,
    'path',
    'organizationID',
  );
});

e1('E1 403 for a member (it holds the private key) and for another organization', async (ctx) => {
  await client(ctx.svc.url, as.key(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, {
    certificate: pem().certificate,
    privateKey: pem().privateKey,
  });
  expectError(await client(ctx.svc.url, as.member(ctx.a)).get(`${CERT}/${ctx.a.orgId}`), 403, 'forbidden', SECRETS_403);
  expectError(await client(ctx.svc.url, as.key(ctx.b)).get(`${CERT}/${ctx.a.orgId}`), 403, 'forbidden');
});

e1('E1 404 when the organization has stored none', async (ctx) => {
  expectError(
    await client(ctx.svc.url, as.key(ctx.b)).get(`${CERT}/${ctx.b.orgId}`),
    404,
    'not_found',
    'Certificate not found',
  );
});

e1(
  'E1 200 for an admin and the API key, also with the organization in the query behind the placeholder',
  async (ctx) => {
    const { certificate, privateKey } = pem();
    await client(ctx.svc.url, as.key(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, { certificate, privateKey });
    const expected = { organizationId: ctx.a.orgId, certificate, caChain: '', privateKey };
    assert.equal((await client(ctx.svc.url, as.admin(ctx.a)).get(`${CERT}/${ctx.a.orgId}`)).body, expected);
    const viaQuery = await client(ctx.svc.url, as.key(ctx.a)).get(
      `${CERT}/%7BorganizationID%7D?organizationID=${ctx.a.orgId}`,
    );
    assert.is(viaQuery.status, 200);
    assert.equal(viaQuery.body, expected);
  },
);

e1.run();

const del = elsSuite('E2-delete delete certificate set');
rejectsUnauthenticated(del, 'E2-delete', 'DELETE', (ctx) => `${CERT}/${ctx.a.orgId}`);

del(
  'E2-delete 400 on a bad organizationID; 403 for a member and another organization; 404 when none is stored',
  async (ctx) => {
    expectBadRequest(
      await client(ctx.svc.url, as.key(ctx.a)).delete(`${CERT}/x`),
      'invalid_parameter',
      elsWording.organization,
      'path',
      'organizationID',
    );
    expectError(await client(ctx.svc.url, as.member(ctx.a)).delete(`${CERT}/${ctx.a.orgId}`), 403, 'forbidden');
    expectError(await client(ctx.svc.url, as.admin(ctx.b)).delete(`${CERT}/${ctx.a.orgId}`), 403, 'forbidden');
    expectError(
      await client(ctx.svc.url, as.key(ctx.a)).delete(`${CERT}/${ctx.a.orgId}`),
      404,
      'not_found',
      'Certificate not found',
    );
  },
);

del('E2-delete 200 {"status":"deleted"}; afterwards E1 is 404', async (ctx) => {
  await client(ctx.svc.url, as.key(ctx.a)).put(`${CERT}/${ctx.a.orgId}`, {
    certificate: pem().certificate,
    privateKey: pem().privateKey,
  });
  const res = await client(ctx.svc.url, as.admin(ctx.a)).delete(`${CERT}/${ctx.a.orgId}`);
  assert.is(res.status, 200);
  assert.equal(res.body, { status: 'deleted' });
  expectError(
    await client(ctx.svc.url, as.key(ctx.a)).get(`${CERT}/${ctx.a.orgId}`),
    404,
    'not_found',
    'Certificate not found',
  );
});

del.run();
