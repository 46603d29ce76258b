// The integration's secrets at rest and in logs: the raw documents (and the embedded database's files)
// hold no privateKey or password in the clear, a ciphertext moved to another organization does not
// decrypt, the key rotates through SECRETS_PREVIOUS_KEYS, the key file is made with mode 0600, and no
// secret reaches the log.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { keyIdOf, openKeyring } from '../server/areas/els-cobra/secrets.js';
import { loadConfig } from '../server/config.js';
import { startService } from '../server/service.js';
import { ELS, TEST_KEY, pem } from './helpers/els-cobra.js';
import { expectError } from './helpers/expect.js';
import { client } from './helpers/http.js';
import { as } from './helpers/journal.js';
import { createOrg, startTestService, testDbUri, type OrgFixture, type TestService } from './helpers/service.js';

const KEY_2 = randomBytes(32).toString('base64');
const password = () => `pw-${randomBytes(12).toString('hex')}`;
const keyLines = (key: string) => key.split('\n').filter((line) => line && !line.startsWith('-----'));

interface Ctx {
  svc: TestService;
  a: OrgFixture;
  b: OrgFixture;
}

const secrets = suite<Ctx>('integration secrets', {} as Ctx);
secrets.before(async (ctx) => {
  ctx.svc = await startTestService({ SECRETS_KEY: TEST_KEY });
  ctx.a = await createOrg(ctx.svc);
  ctx.b = await createOrg(ctx.svc);
});
secrets.after(async (ctx) => {
  await ctx.svc.close();
});

const storeCredentials = (svc: TestService, org: OrgFixture, secret: string, service = 'alarm') =>
  client(svc.url, as.key(org)).put(`${ELS}/credentials/${org.orgId}?serviceName=${service}`, {
    username: 'u',
    password: secret,
    url: 'https://cobra.example/',
  });

secrets(
  "the raw MongoDB documents hold privateKey and password only as AES-256-GCM ciphertext under the key's id",
  async (ctx) => {
    const secret = password();
    const { certificate, privateKey } = pem();
    assert.is(
      (await client(ctx.svc.url, as.key(ctx.a)).put(`${ELS}/certificate/${ctx.a.orgId}`, { certificate, privateKey }))
        .status,
      200,
    );
    assert.is((await storeCredentials(ctx.svc, ctx.a, secret)).status, 200);
    const db = ctx.svc.db.conn.db!;
    const raw = [
      ...(await db
        .collection('els_cobra_settings')
        .find({ _id: `${ctx.a.orgId}:certificate` as never })
        .toArray()),
      ...(await db
        .collection('els_cobra_credentials')
        .find({ _id: `${ctx.a.orgId}:alarm` as never })
        .toArray()),
    ];
    assert.is(raw.length, 2);
    const text = JSON.stringify(raw);
    assert.not.ok(text.includes(secret), 'password in the clear');
    for (const line of keyLines(privateKey)) assert.not.ok(text.includes(line), 'private key material in the clear');
    assert.ok(text.includes(keyLines(certificate)[0]), 'the certificate itself is public and stored as given');
    const [cert, cred] = raw as any[];
    assert.equal(Object.keys(cert.secrets), ['privateKey']);
    assert.equal(Object.keys(cred.secrets), ['password']);
    for (const sealed of [cert.secrets.privateKey, cred.secrets.password]) {
      assert.is(sealed.keyId, keyIdOf(Buffer.from(TEST_KEY, 'base64')));
      assert.is(Buffer.from(sealed.iv, 'base64').length, 12);
      assert.is(Buffer.from(sealed.tag, 'base64').length, 16);
    }
    assert.not.ok('password' in JSON.parse(cred.data));
    // The embedded database's own files (FerretDB's SQLite, when this run uses it) do not hold it either.
    const dir = path.join(process.env.TEST_DATA_DIR ?? '', 'ferretdb');
    if (fs.existsSync(dir)) {
      const files = fs
        .readdirSync(dir, { recursive: true })
        .map((f) => path.join(dir, String(f)))
        .filter((f) => fs.statSync(f).isFile());
      assert.ok(files.length > 0);
      for (const file of files) assert.not.ok(fs.readFileSync(file).includes(secret), `${file} holds the password`);
    }
  },
);

secrets(
  "a ciphertext copied to another organization's document does not decrypt there (500, no secret)",
  async (ctx) => {
    const secret = password();
    await storeCredentials(ctx.svc, ctx.a, secret, 'moved');
    await storeCredentials(ctx.svc, ctx.b, password(), 'moved');
    const col = ctx.svc.db.conn.db!.collection('els_cobra_credentials');
    const source = await col.findOne({ _id: `${ctx.a.orgId}:moved` as never });
    await col.updateOne({ _id: `${ctx.b.orgId}:moved` as never }, { $set: { secrets: source!.secrets } });
    const res = await client(ctx.svc.url, as.key(ctx.b)).get(`${ELS}/credentials/${ctx.b.orgId}?serviceName=moved`);
    expectError(res, 500, 'internal_error');
    assert.not.ok(JSON.stringify(res.body).includes(secret));
  },
);

secrets(
  'rotation: a new SECRETS_KEY with the old one in SECRETS_PREVIOUS_KEYS reads old secrets and ' +
    'writes under the new key',
  async (ctx) => {
    const old = password();
    await storeCredentials(ctx.svc, ctx.a, old, 'rotated');
    const rotated = await startTestService({ SECRETS_KEY: KEY_2, SECRETS_PREVIOUS_KEYS: TEST_KEY });
    const withoutOld = await startTestService({ SECRETS_KEY: KEY_2 });
    try {
      const read = await client(rotated.url, as.key(ctx.a)).get(
        `${ELS}/credentials/${ctx.a.orgId}?serviceName=rotated`,
      );
      assert.is(read.body.password, old);
      const oldId = keyIdOf(Buffer.from(TEST_KEY, 'base64'));
      const missing = await client(withoutOld.url, as.key(ctx.a)).get(
        `${ELS}/credentials/${ctx.a.orgId}?serviceName=rotated`,
      );
      expectError(missing, 500, 'internal_error');
      assert.match(missing.body.message, oldId);
      const fresh = password();
      assert.is((await storeCredentials(rotated, ctx.a, fresh, 'rotated')).status, 200);
      const doc = await ctx.svc.db.conn
        .db!.collection('els_cobra_credentials')
        .findOne({ _id: `${ctx.a.orgId}:rotated` as never });
      assert.is(doc!.secrets.password.keyId, keyIdOf(Buffer.from(KEY_2, 'base64')));
      assert.is(
        (await client(withoutOld.url, as.key(ctx.a)).get(`${ELS}/credentials/${ctx.a.orgId}?serviceName=rotated`)).body
          .password,
        fresh,
      );
    } finally {
      await rotated.close();
      await withoutOld.close();
    }
  },
);

secrets(
  'without SECRETS_KEY the key file DATA_DIR/secrets.key is made with mode 0600 and shared by ' +
    'processes on that directory',
  async (ctx) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'els-cobra-key-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      assert.is(config.secretsKeyFile, path.join(dataDir, 'secrets.key'));
      const first = openKeyring(config);
      assert.match(first.source, 'created now with mode 0600');
      assert.is(fs.statSync(config.secretsKeyFile).mode & 0o777, 0o600);
      const second = openKeyring(config);
      assert.is(second.keyring.keyId, first.keyring.keyId);
      assert.not.match(second.source, 'created now');
      const svc = await startTestService({ DATA_DIR: dataDir });
      try {
        const secret = password();
        await storeCredentials(svc, ctx.a, secret, 'file-key');
        const doc = await svc.db.conn
          .db!.collection('els_cobra_credentials')
          .findOne({ _id: `${ctx.a.orgId}:file-key` as never });
        assert.is(doc!.secrets.password.keyId, first.keyring.keyId);
        assert.is(
          (await client(svc.url, as.key(ctx.a)).get(`${ELS}/credentials/${ctx.a.orgId}?serviceName=file-key`)).body
            .password,
          secret,
        );
      } finally {
        await svc.close();
      }
      fs.chmodSync(config.secretsKeyFile, 0o644);
      assert.throws(() => openKeyring(config), /readable by others/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

secrets('SECRETS_KEY and SECRETS_PREVIOUS_KEYS must be 32-byte keys; start-up lines never show them', () => {
  for (const bad of ['short', 'x'.repeat(64), Buffer.alloc(16).toString('base64')]) {
    assert.throws(() => loadConfig({ SECRETS_KEY: bad }), /SECRETS_KEY must be 32 bytes/);
    assert.throws(
      () => loadConfig({ SECRETS_PREVIOUS_KEYS: `${TEST_KEY},${bad}` }),
      /SECRETS_PREVIOUS_KEYS must be 32 bytes/,
    );
  }
  assert.is(loadConfig({ SECRETS_KEY: 'ab'.repeat(32) }).secretsKey, 'ab'.repeat(32));
});

secrets('no privateKey or password reaches the log, at level trace, on success or failure', async (ctx) => {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'trace',
    RATE_LIMIT_PER_SECOND: '0',
    SECRETS_KEY: TEST_KEY,
  });
  const svc = await startService(config, testDbUri(), pino({ level: 'trace' }, sink));
  const url = `http://127.0.0.1:${svc.port}`;
  try {
    const secret = password();
    const { certificate, privateKey, otherKey } = pem();
    const c = client(url, as.key(ctx.a));
    assert.is((await c.put(`${ELS}/certificate/${ctx.a.orgId}`, { certificate, privateKey })).status, 200);
    assert.is((await c.put(`${ELS}/certificate/${ctx.a.orgId}`, { certificate, privateKey: otherKey })).status, 400);
    assert.is(
      (
        await c.put(`${ELS}/credentials/${ctx.a.orgId}?serviceName=logged`, {
          username: 'u',
          password: secret,
          url: 'ftp://x',
        })
      ).status,
      400,
    );
    assert.is(
      (
        await c.put(`${ELS}/credentials/${ctx.a.orgId}?serviceName=logged`, {
          username: 'u',
          password: secret,
          url: 'https://x.example/',
        })
      ).status,
      200,
    );
    assert.is((await c.get(`${ELS}/credentials/${ctx.a.orgId}?serviceName=logged`)).status, 200);
    assert.is((await c.get(`${ELS}/certificate/${ctx.a.orgId}`)).status, 200);
    // A 500 is logged with its error: a tampered secret must not bring the plaintext along.
    await ctx.svc.db.conn
      .db!.collection('els_cobra_credentials')
      .updateOne(
        { _id: `${ctx.a.orgId}:logged` as never },
        { $set: { 'secrets.password.tag': Buffer.alloc(16).toString('base64') } },
      );
    assert.is((await c.get(`${ELS}/credentials/${ctx.a.orgId}?serviceName=logged`)).status, 500);
    const log = lines.join('');
    assert.ok(log.includes('"label":"E2"') && log.includes('request failed'), 'the requests were logged');
    assert.not.ok(log.includes(secret));
    for (const line of [...keyLines(privateKey), ...keyLines(otherKey)]) assert.not.ok(log.includes(line));
  } finally {
    await svc.close();
  }
});

secrets.run();
