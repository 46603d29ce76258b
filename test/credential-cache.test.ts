// Resolved credentials are reused for CREDENTIAL_CACHE_MS (issue 11: a busy client's requests no longer
// each read the credential): a token revoked elsewhere stops working within that time, and one revoked
// by this process (a removed screen) at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { createOrg, startTestService, type OrgFixture, type TestService } from './helpers/service.js';

const cache = suite<{ svc: TestService; org: OrgFixture }>('credential cache', {} as { svc: TestService; org: OrgFixture });

cache.before(async (ctx) => {
  ctx.svc = await startTestService({ CREDENTIAL_CACHE_MS: '400' });
  ctx.org = await createOrg(ctx.svc);
});
cache.after(async (ctx) => {
  await ctx.svc.close();
});

cache('a token revoked behind the process\'s back answers 401 within CREDENTIAL_CACHE_MS', async (ctx) => {
  const path = `/api/v1/monitor?organization=${ctx.org.orgId}`;
  const pat = client(ctx.svc.url, { pat: ctx.org.member.token });
  assert.is((await pat.get(path)).status, 200);
  await ctx.svc.identity.revokeToken(ctx.org.member.tokenId);
  await new Promise((r) => setTimeout(r, 450));
  expectError(await pat.get(path), 401, 'unauthorized');
});

cache('a removed membership is seen within CREDENTIAL_CACHE_MS', async (ctx) => {
  const path = `/api/v1/monitor?organization=${ctx.org.orgId}`;
  const admin = client(ctx.svc.url, { pat: ctx.org.admin.token });
  assert.is((await admin.get(path)).status, 200);
  await ctx.svc.identity.removeMember(ctx.org.orgId, ctx.org.admin.userId);
  await new Promise((r) => setTimeout(r, 450));
  expectError(await admin.get(path), 403, 'forbidden');
});

cache.run();
