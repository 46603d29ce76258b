// Every expected failure is an AppError with a status and a stable code (docs/api.md "Errors");
// one middleware (server/http/middleware.ts) renders them. Every layer throws them (db/ for an
// unavailable database or a conflicting ID, the areas for their rules), so they belong to none.

export interface ErrorDetail {
  in: 'query' | 'path' | 'body' | 'header';
  path: string;
  problem: string;
}

/** An expected failure: rendered as the error body of docs/api.md "Errors" with this status. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** 400 with one of invalid_parameter, invalid_body, invalid_json. */
export const badRequest = (
  code: 'invalid_parameter' | 'invalid_body' | 'invalid_json',
  message: string,
  details?: ErrorDetail[],
) => new AppError(400, code, message, details);
/** 401: credential missing, unknown or revoked. */
export const unauthorized = (message = 'Unauthorized') => new AppError(401, 'unauthorized', message);
/** 403: authenticated, but not allowed there. */
export const forbidden = (message = 'Not allowed in this organization') => new AppError(403, 'forbidden', message);
/** 404, also for another organization's resource. */
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
/** 409 with a specific code. */
export const conflict = (code: string, message: string) => new AppError(409, code, message);
/** 429 with Retry-After: too many requests from one credential or address. */
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', 'Too many requests; slow down', undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
/** 503 with Retry-After: a backing service is down. */
export const unavailable = (message = 'Service temporarily unavailable', retryAfterSeconds = 5) =>
  new AppError(503, 'unavailable', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
