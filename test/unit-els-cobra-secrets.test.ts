// The integration's keyring and input checks as pure functions (no database).
import { randomBytes } from 'node:crypto';
import { suite } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { isHttpUrl, pemBlocks } from '../server/areas/els-cobra/pem.js';
import { Keyring, keyIdOf, parseKey } from '../server/areas/els-cobra/secrets.js';
import { AppError } from '../server/errors.js';

const unit = suite('integration keyring and checks');
const k1 = randomBytes(32);
const k2 = randomBytes(32);

unit('keys are 32 bytes in base64 (padded or url-safe) or hex; anything else is refused', () => {
  assert.equal(parseKey(k1.toString('base64')), k1);
  assert.equal(parseKey(k1.toString('base64url')), k1);
  assert.equal(parseKey(` ${k1.toString('hex')}\n`), k1);
  for (const bad of ['', 'abc', randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'g'.repeat(64)])
    assert.is(parseKey(bad), null);
});

unit('encrypts under the current key with a fresh IV each time; decrypts only in the same context', () => {
  const ring = new Keyring(k1);
  const a = ring.encrypt('Passwort', 'els-cobra:credentials:1:alarm:password');
  const b = ring.encrypt('Passwort', 'els-cobra:credentials:1:alarm:password');
  assert.is(a.keyId, keyIdOf(k1));
  assert.is.not(a.data, b.data);
  assert.is.not(a.iv, b.iv);
  assert.is(ring.decrypt(a, 'els-cobra:credentials:1:alarm:password'), 'Passwort');
  assert.throws(
    () => ring.decrypt(a, 'els-cobra:credentials:2:alarm:password'),
    (err: AppError) => err.status === 500 && /integrity/.test(err.message),
  );
  assert.throws(
    () => ring.decrypt({ ...a, data: b.data }, 'els-cobra:credentials:1:alarm:password'),
    (err: AppError) => err.status === 500,
  );
});

unit('previous keys decrypt what they wrote; a key not in the ring is named in the error', () => {
  const old = new Keyring(k1).encrypt('alt', 'c');
  const rotated = new Keyring(k2, [k1]);
  assert.is(rotated.keyId, keyIdOf(k2));
  assert.is(rotated.decrypt(old, 'c'), 'alt');
  assert.is(rotated.encrypt('neu', 'c').keyId, keyIdOf(k2));
  assert.throws(
    () => new Keyring(k2).decrypt(old, 'c'),
    (err: AppError) => err.status === 500 && err.message.includes(keyIdOf(k1)),
  );
  assert.is.not(keyIdOf(k1), keyIdOf(k2));
  assert.not.ok(keyIdOf(k1).includes(k1.toString('hex').slice(0, 8)));
});

unit('PEM blocks are split only when nothing else surrounds them; URLs must be http(s) with a host', () => {
  const block = '-----BEGIN CERTIFICATE-----\nQUJD\n-----END CERTIFICATE-----\n';
  assert.equal(
    pemBlocks(`${block}\n${block}`)!.map((b) => b.label),
    ['CERTIFICATE', 'CERTIFICATE'],
  );
  assert.is(pemBlocks(`x${block}`), null);
  assert.equal(pemBlocks(''), []);
  assert.is(pemBlocks('-----BEGIN CERTIFICATE-----\nQUJD\n-----END PRIVATE KEY-----'), null);
  for (const good of ['https://cobra.example/x', 'http://10.0.0.1:8080']) assert.ok(isHttpUrl(good));
  for (const bad of ['ftp://x.example', 'https://', 'javascript:alert(1)', 'cobra.example', 'file:///etc/passwd'])
    assert.not.ok(isHttpUrl(bad));
});

unit.run();
