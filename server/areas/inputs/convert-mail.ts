// An e-mail as the inputs read it (docs/inputs.md "Documents"): its sender, subject, and either the
// text of its text part (or of its HTML part, as mailparser renders it) or the first attachment that
// is a document convert.ts reads — a PDF, PNG or TIFF, else an attached mail (a forward), which
// convert.ts reads in turn down to a depth limit. Only parsing here; no tool runs.
import { simpleParser, type Attachment } from 'mailparser';

export type AttachedType = 'application/pdf' | 'image/png' | 'image/tiff' | 'message/rfc822';

export interface MailParts {
  /** The sender's address ('' when the mail names none). */
  from: string;
  subject?: string;
  /** The text part, when it has letters. */
  text?: string;
  /** Otherwise the document to read instead, if any. */
  attachment?: { body: Buffer; type: AttachedType };
}

const SIGNATURES: Array<['image/png' | 'image/tiff', Buffer]> = [
  ['image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/tiff', Buffer.from('II*\0', 'latin1')],
  ['image/tiff', Buffer.from('MM\0*', 'latin1')],
];

/** The type a file's first bytes show, if it is a PDF, PNG or TIFF. */
export function sniffedType(body: Buffer): 'application/pdf' | 'image/png' | 'image/tiff' | undefined {
  if (body.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  return SIGNATURES.find(([, signature]) => body.subarray(0, signature.length).equals(signature))?.[0];
}

const hasLetters = (text: string) => /\p{L}/u.test(text);

/** What an attachment is, by its bytes first (senders label PDFs application/octet-stream), else by its label. */
function attachedType(attachment: Attachment): AttachedType | undefined {
  const sniffed = sniffedType(attachment.content);
  if (sniffed) return sniffed;
  const label = attachment.contentType.toLowerCase();
  if (label === 'image/tif') return 'image/tiff';
  return (['application/pdf', 'image/png', 'image/tiff', 'message/rfc822'] as const).find((t) => t === label);
}

/** Parses an RFC 822 message; throws an Error saying why when it cannot. */
export async function readMail(source: Buffer): Promise<MailParts> {
  const mail = await simpleParser(source, {
    // Every attached mail stays an attachment: convert.ts reads it, counting the depth.
    ignoreEmbedded: true,
    keepCidLinks: true,
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    checksumAlgo: false,
    maxHtmlLengthToParse: 2_000_000,
  });
  const parts: MailParts = {
    from: mail.from?.value.find((address) => address.address)?.address ?? '',
    ...(mail.subject ? { subject: mail.subject } : {}),
  };
  if (typeof mail.text === 'string' && hasLetters(mail.text)) return { ...parts, text: mail.text };
  const documents = mail.attachments.map((a) => ({ body: a.content, type: attachedType(a) }));
  // A document beats an attached mail, wherever each comes.
  const chosen =
    documents.find((d) => d.type && d.type !== 'message/rfc822') ?? documents.find((d) => d.type === 'message/rfc822');
  return chosen?.type ? { ...parts, attachment: { body: chosen.body, type: chosen.type } } : parts;
}
