// A tiny HTTP client for tests: real requests over the wire, JSON in and out.

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export type Credential = { apiKey: string } | { pat: string } | null;

/** Sends a request; `body` is JSON-encoded unless it is a string. */
export async function request(
  base: string,
  method: string,
  path: string,
  opts: { auth?: Credential; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.auth && 'apiKey' in opts.auth) headers['API-TOKEN'] = opts.auth.apiKey;
  if (opts.auth && 'pat' in opts.auth) headers['Personal-Access-Token'] = opts.auth.pat;
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body: payload });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** Binds request() to one service and credential. */
export function client(base: string, auth: Credential) {
  return {
    get: (path: string, headers?: Record<string, string>) => request(base, 'GET', path, { auth, headers }),
    post: (path: string, body?: unknown) => request(base, 'POST', path, { auth, body }),
    put: (path: string, body?: unknown) => request(base, 'PUT', path, { auth, body }),
    patch: (path: string, body?: unknown) => request(base, 'PATCH', path, { auth, body }),
    delete: (path: string) => request(base, 'DELETE', path, { auth }),
  };
}
