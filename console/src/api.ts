// The console talks to the public REST API only (docs/console.md): same origin, the session cookie,
// JSON in and out. Every failure becomes an ApiError carrying the API's error body, so a page can show
// its message next to the field it concerns.

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

/** Sends a request to /api/v1; resolves with the JSON answer or rejects with an ApiError. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'offline', '');
  }
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok)
    throw new ApiError(
      res.status,
      String(json.error ?? 'error'),
      String(json.message ?? res.statusText),
      (json.details as ErrorDetail[] | undefined) ?? [],
    );
  return json as T;
}
