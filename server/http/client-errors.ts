// Requests Node's HTTP parser refuses before any middleware sees them still get the error body of
// docs/api.md "Errors", not Node's empty 400 and a closed connection. The usual case is a
// client that sends raw UTF-8 in the query (`curl '…/records?search=straße'`): it is told to
// percent-encode.
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/** True when the request line (up to the first CR or LF) holds a byte outside ASCII. */
function rawNonAscii(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  for (const byte of packet) {
    if (byte === 0x0d || byte === 0x0a) return false;
    if (byte > 0x7e) return true;
  }
  return false;
}

function answer(status: number, reason: string, body: Record<string, unknown>): string {
  const requestId = randomUUID();
  const json = JSON.stringify({ ...body, requestId });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ` +
    `${Buffer.byteLength(json)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`
  );
}

/** The `clientError` listener of the service's HTTP server. */
export function answerClientError(err: ParserError, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let response: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') response = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';
  else if (err.code === 'HPE_HEADER_OVERFLOW')
    response = answer(431, 'Request Header Fields Too Large', {
      error: 'invalid_parameter',
      message: 'The request headers are too large (at most 16 KiB)',
    });
  else if (rawNonAscii(err.rawPacket)) {
    response = answer(400, 'Bad Request', {
      error: 'invalid_parameter',
      message:
        'The path or query holds raw non-ASCII characters: percent-encode non-ASCII characters (straße as stra%C3%9Fe)',
      details: [{ in: 'query', path: '(request line)', problem: 'percent-encode non-ASCII characters' }],
    });
  } else
    response = answer(400, 'Bad Request', { error: 'invalid_parameter', message: 'The request is not valid HTTP/1.1' });
  socket.end(response);
}
