// What can be checked of a certificate set, checked with node's crypto: the PEM envelopes are split
// here, their contents are parsed by X509Certificate and createPrivateKey, and the key must be the
// certificate's. Problems name the field, never its content (it may be key material).
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { ErrorDetail } from '../../errors.js';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END \1-----/g;
const PRIVATE_KEY_LABELS = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);

interface Block {
  label: string;
  pem: string;
}

/** The PEM blocks of a text, or null when anything but whitespace lies outside them. */
export function pemBlocks(text: string): Block[] | null {
  const blocks: Block[] = [];
  const rest = text.replace(BLOCK, (pem, label: string) => {
    blocks.push({ label, pem });
    return '';
  });
  return rest.trim() === '' ? blocks : null;
}

function certificates(text: string): X509Certificate[] | null {
  const blocks = pemBlocks(text);
  if (!blocks?.length || blocks.some((b) => b.label !== 'CERTIFICATE')) return null;
  try {
    return blocks.map((b) => new X509Certificate(b.pem));
  } catch {
    return null;
  }
}

function privateKey(text: string): KeyObject | string {
  const blocks = pemBlocks(text);
  if (blocks?.length !== 1) return 'must be one PEM private key';
  if (blocks[0].label === 'ENCRYPTED PRIVATE KEY') return 'must not be encrypted (the service must use it unattended)';
  if (!PRIVATE_KEY_LABELS.has(blocks[0].label)) return 'must be one PEM private key';
  try {
    return createPrivateKey({ key: blocks[0].pem, format: 'pem' });
  } catch {
    return 'is not a readable private key';
  }
}

/** The problems of a certificate set (empty when it is usable). */
export function certificateSetProblems(set: {
  certificate: string;
  caChain?: string;
  privateKey: string;
}): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const problem = (path: string, text: string) => problems.push({ in: 'body', path, problem: text });
  const certificate = certificates(set.certificate);
  if (certificate?.length !== 1) problem('certificate', 'must be one PEM certificate');
  if (set.caChain && !certificates(set.caChain)) problem('caChain', 'must be PEM certificates');
  const key = privateKey(set.privateKey);
  if (typeof key === 'string') problem('privateKey', key);
  else if (certificate?.length === 1 && !certificate[0].checkPrivateKey(key))
    problem('privateKey', 'does not belong to the certificate');
  return problems;
}

/** True for an absolute http or https URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
