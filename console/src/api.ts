// The console talks to the public REST API only (docs/console.md): same origin, the session cookie,
// JSON in and out. Every failure becomes an ApiError carrying the API's error body, so a page can show
// its message next to the field it concerns; no network, or an answer that is not the API's (a proxy's
// error page), becomes one too.

export interface ErrorDetail {
  in: string;
  path: string;
  problem: string;
}

/** A failed request: the API's status, code, message and details (docs/api.md "Errors"). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/** Extra headers, or a body sent as it is (a CSV file, a document) with its type. */
export interface RequestOptions {
  headers?: Record<string, string>;
  raw?: { body: string | Blob; type: string };
}

/** Sends a request to /api/v1; resolves with the JSON answer or rejects with an ApiError. */
export async function api<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Blob | undefined;
  if (options.raw) {
    headers['Content-Type'] = options.raw.type;
    payload = options.raw.body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, credentials: 'same-origin', headers, body: payload });
  } catch {
    throw new ApiError(0, 'offline', '');
  }
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not the API's answer: a proxy's error page, a gateway timeout.
    throw new ApiError(res.status, res.status >= 500 ? 'unavailable' : 'error', res.statusText);
  }
  if (!res.ok)
    throw new ApiError(
      res.status,
      String(json.error ?? 'error'),
      String(json.message ?? res.statusText),
      (json.details as ErrorDetail[] | undefined) ?? [],
    );
  return json as T;
}
