// The part of http_ece (which ships no types) the Web Push fake uses to decrypt what it receives.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  const ece: {
    decrypt(
      buffer: Buffer,
      params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer | string; rs?: number },
    ): Buffer;
  };
  export default ece;
}
