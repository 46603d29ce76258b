// The channel areas' pure rules, without a database: owner reach (spec rule 4), push answers, the
// feedback organization, the push platform of an os text, gsm numbers and placeholder path IDs.
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { platformOf } from '../server/areas/app/devices.js';
import { describeConfig, loadConfig } from '../server/config.js';
import { checkGsm, pathOrQueryId } from '../server/areas/channels/fields.js';
import { AppError } from '../server/errors.js';
import type { Actor } from '../server/identity/actor.js';
import { canAnswerPush, feedbackOrganization, reachOwner } from '../server/identity/policy.js';

const ORG = 17;
const OTHER = 23;
const OWNER = 5;
const apiKey: Actor = { kind: 'apikey', tokenId: 1, credential: 'k', organizationId: ORG };
const user = (userId: number, roles: Array<[number, 'admin' | 'member']>): Actor => ({
  kind: 'user',
  tokenId: 2,
  credential: 'p',
  userId,
  roles: new Map(roles),
});
const owner = user(OWNER, [[ORG, 'member']]);
const admin = user(6, [[ORG, 'admin']]);
const member = user(7, [[ORG, 'member']]);
const stranger = user(8, [[OTHER, 'admin']]);

const rules = suite('channel policies');

rules('reachOwner: the owner himself, with or without any organization named', () => {
  assert.equal(reachOwner(owner, undefined, OWNER), { via: 'self' });
  assert.equal(reachOwner(owner, OTHER, OWNER), { via: 'self' });
});

rules("reachOwner: another user's resources without an organization are hidden (404)", () => {
  assert.equal(reachOwner(admin, undefined, OWNER), { via: 'none', status: 404 });
  assert.equal(reachOwner(stranger, undefined, OWNER), { via: 'none', status: 404 });
});

rules('reachOwner: through an organization the actor administers; the API key implies its own', () => {
  assert.equal(reachOwner(admin, ORG, OWNER), { via: 'organization', organizationId: ORG });
  assert.equal(reachOwner(apiKey, undefined, OWNER), { via: 'organization', organizationId: ORG });
  assert.equal(reachOwner(apiKey, ORG, OWNER), { via: 'organization', organizationId: ORG });
  assert.equal(reachOwner(stranger, OTHER, OWNER), { via: 'organization', organizationId: OTHER });
});

rules('reachOwner: naming an organization the actor does not administer is a 403', () => {
  assert.equal(reachOwner(member, ORG, OWNER), { via: 'none', status: 403 });
  assert.equal(reachOwner(apiKey, OTHER, OWNER), { via: 'none', status: 403 });
  assert.equal(reachOwner(stranger, ORG, OWNER), { via: 'none', status: 403 });
});

rules("canAnswerPush: only the owner's personal token, while he is a member of the push's organization", () => {
  const push = { ownerID: OWNER, organizationID: ORG };
  assert.ok(canAnswerPush(owner, push));
  assert.not.ok(canAnswerPush(admin, push));
  assert.not.ok(canAnswerPush(apiKey, push));
  // Removed from the organization (or never in it): his pushes of it are no longer his to answer.
  assert.not.ok(canAnswerPush(user(OWNER, [[OTHER, 'member']]), push));
  // A test push (A5) belongs to no organization.
  assert.ok(canAnswerPush(user(OWNER, []), { ownerID: OWNER, organizationID: null }));
});

rules("feedbackOrganization: the API key's own unless named; a user must name it", () => {
  assert.is(feedbackOrganization(apiKey, undefined), ORG);
  assert.is(feedbackOrganization(apiKey, OTHER), OTHER);
  assert.is(feedbackOrganization(member, undefined), undefined);
  assert.is(feedbackOrganization(member, ORG), ORG);
});

rules('platformOf: android or ios/ipados in any case; neither or both is null', () => {
  assert.is(platformOf('Android 9.0.1'), 'android');
  assert.is(platformOf('iOS 12'), 'ios');
  assert.is(platformOf('IPADOS 17'), 'ios');
  assert.is(platformOf('iPadOS 17.1'), 'ios');
  assert.is(platformOf('Windows 11'), null);
  assert.is(platformOf('android and ios'), null);
});

const thrown = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  return null;
};

rules('checkGsm: valid E.164 numbers with 00 pass; unknown country codes and wrong lengths are 400', () => {
  for (const ok of ['004917612345678', '0012025550123', '0033612345678', undefined])
    assert.is(
      thrown(() => checkGsm(ok, 'm')),
      null,
    );
  for (const bad of ['00999123456789', '0049123', '0044163296098']) {
    const err = thrown(() => checkGsm(bad, 'm'));
    assert.ok(err instanceof AppError && err.status === 400 && err.message === 'm', bad);
  }
});

rules('pathOrQueryId: a numeric path wins, the placeholder takes the query, disagreement is a 400', () => {
  assert.is(pathOrQueryId('12', undefined, 'mobileID', 'm'), 12);
  assert.is(pathOrQueryId('12', 12, 'mobileID', 'm'), 12);
  assert.is(pathOrQueryId('{mobileID}', 34, 'mobileID', 'm'), 34);
  assert.is(thrown(() => pathOrQueryId('{mobileID}', undefined, 'mobileID', 'm'))?.status, 400);
  assert.is(thrown(() => pathOrQueryId('12', 13, 'mobileID', 'm'))?.status, 400);
  assert.is(thrown(() => pathOrQueryId('9007199254740993', undefined, 'mobileID', 'm'))?.status, 400);
});

rules.run();

const config = suite('push configuration');

config('push gateways stay off until configured; APNs needs all four variables and names the missing ones', () => {
  const off = loadConfig({});
  assert.equal(
    { apns: off.push.apns, fcm: off.push.fcm, ttl: off.push.confirmTtlSeconds },
    { apns: null, fcm: null, ttl: 86_400 },
  );
  assert.throws(
    () => loadConfig({ APNS_KEY_FILE: 'k.p8', APNS_TEAM_ID: 'T' }),
    /APNS_KEY_ID, APNS_TOPIC must be set together with APNS_KEY_FILE, APNS_TEAM_ID/,
  );
  const onEnv = {
    APNS_KEY_FILE: 'k.p8',
    APNS_KEY_ID: 'K',
    APNS_TEAM_ID: 'T',
    APNS_TOPIC: 'org.x',
    FCM_SERVICE_ACCOUNT_FILE: 'sa.json',
    PUSH_CONFIRM_TTL_SECONDS: '600',
  };
  const on = loadConfig(onEnv);
  assert.is(on.push.apns?.host, 'https://api.push.apple.com');
  assert.is(on.push.apns?.sandboxHost, 'https://api.sandbox.push.apple.com');
  assert.is(on.push.fcm?.host, 'https://fcm.googleapis.com');
  assert.is(on.push.confirmTtlSeconds, 600);
  const lines = describeConfig(onEnv).join('\n');
  for (const line of [
    'APNS_KEY_ID=K (from environment)',
    'APNS_TEAM_ID=T (from environment)',
    'APNS_TOPIC=org.x (from environment)',
    'APNS_HOST=https://api.push.apple.com (default)',
  ])
    assert.ok(lines.includes(line), line);
  assert.match(lines, /^APNS_KEY_FILE=\/.*\/k\.p8 \(from environment\)$/m);
  assert.match(describeConfig({}).join('\n'), /iOS test pushes answer 503 push_unavailable/);
});

config.run();
