// A body that is a document, not JSON (docs/api.md "Alarm inputs (IP1–IP6, IN3)"): an operation's
// `document` types, read unparsed by the body middleware and handed to the handler as it came.
/** The most a document body (IP4, IP5) may have: 20 MiB. */
export const DOCUMENT_LIMIT = 20 * 1024 * 1024;

/** A document sent as the body (an operation's `document` types): its media type and bytes, unparsed. */
export class DocumentBody {
  constructor(
    readonly type: string,
    readonly bytes: Buffer,
  ) {}
}
