// Where people reach the service (PUBLIC_URL; docs/people.md "PUBLIC_URL"): invitation links, the
// session cookie's Secure flag and the origin a cookie request that changes state must come from. Unset,
// it is the local address the service listens on, known once it listens.
export class PublicUrl {
  private bound: string | null = null;

  constructor(private readonly configured: string | undefined) {}

  /** The service listens on `port` (the default's port; PORT=0 picks one). */
  listening(port: number): void {
    this.bound = `http://localhost:${port}`;
  }

  /** The URL without a trailing slash. */
  get href(): string {
    return (this.configured ?? this.bound ?? 'http://localhost').replace(/\/+$/, '');
  }

  get origin(): string {
    return new URL(this.href).origin;
  }

  /** The host name: a passkey's relying party (WebAuthn binds passkeys to it). */
  get hostname(): string {
    return new URL(this.href).hostname;
  }

  /** True for https: the session cookie is then sent over TLS only. */
  get secure(): boolean {
    return this.href.startsWith('https:');
  }
}
