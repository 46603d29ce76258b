// Shared set-up for the integration (els-cobra) tests: PEM material made by openssl once per run, a
// fixed secrets key, and the area's paths and wording.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { elsWording } from '../../server/areas/els-cobra/inputs.js';
import { journalSuite } from './journal.js';

export { elsWording };
export const ELS = '/api/v1/els-cobra';
/** The secrets key the test services use (32 bytes, base64). */
export const TEST_KEY = Buffer.alloc(32, 7).toString('base64');

export interface Pem {
  /** A self-signed certificate and its key (PKCS#8, "PRIVATE KEY"). */
  certificate: string;
  privateKey: string;
  /** A leaf certificate issued by a CA, its key (traditional "RSA PRIVATE KEY") and the CA certificate. */
  leaf: string;
  leafKey: string;
  caChain: string;
  /** A key that belongs to no certificate here (EC). */
  otherKey: string;
  /** The first key, encrypted with a passphrase. */
  encryptedKey: string;
}

let made: Pem | undefined;

/** Certificates and keys for the tests, made once with openssl. */
export function pem(): Pem {
  if (made) return made;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'els-cobra-pem-'));
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '30',
      '-subj',
      '/CN=els-cobra test',
    );
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Test CA',
    );
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      '/CN=Leitstelle',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '30',
    );
    openssl('pkey', '-in', 'leaf.key', '-traditional', '-out', 'leaf-rsa.key');
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'other.key');
    openssl('pkcs8', '-topk8', '-in', 'key.pem', '-passout', 'pass:geheim', '-out', 'encrypted.key');
    made = {
      certificate: read('cert.pem'),
      privateKey: read('key.pem'),
      leaf: read('leaf.pem'),
      leafKey: read('leaf-rsa.key'),
      caChain: read('ca.pem'),
      otherKey: read('other.key'),
      encryptedKey: read('encrypted.key'),
    };
    return made;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A suite with a fresh service using TEST_KEY (unless `env` says otherwise) and organizations A and B. */
export const elsSuite = (name: string, env: Record<string, string> = { SECRETS_KEY: TEST_KEY }) =>
  journalSuite(name, env);
