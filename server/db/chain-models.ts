// The collections behind every version chain (server/db/chain.ts): tiny links, head hints, bodies.
import { Schema, type Connection, type Model } from 'mongoose';

export interface LinkDoc {
  _id: string;
  key: string;
  n: number;
  epoch: string;
  base: string;
  at: Date;
  /** The body as JSON when it is small; absent when it lives in a content document. */
  body?: string;
  /** True when the body lives in a content document (what pruning drops). */
  apart?: boolean;
}

export interface HeadDoc {
  _id: string;
  n: number;
}

export interface ContentDoc {
  _id: string;
  key: string;
  body: string;
}

export interface ChainModels {
  links: Model<LinkDoc>;
  heads: Model<HeadDoc>;
  contents: Model<ContentDoc>;
}

/** One version of a key's history. */
export interface Version<T> {
  n: number;
  epoch: string;
  body: T;
}

/** The identity of a version without its body. */
export type VersionRef = Omit<Version<unknown>, 'body'>;

/** Registers the chain collections on a connection. */
export function chainModels(conn: Connection): ChainModels {
  const link = new Schema<LinkDoc>(
    {
      _id: String,
      key: { type: String, required: true },
      n: { type: Number, required: true },
      epoch: { type: String, required: true },
      base: { type: String, default: '' },
      at: { type: Date, required: true },
      body: { type: String },
      apart: { type: Boolean },
    },
    { versionKey: false },
  );
  // MongoDB answers the rare scans (a pruned hint, a removal) from this index; FerretDB reads the
  // collection, whose links carry bodies of at most 32 KiB (larger ones live in chain_contents).
  link.index({ key: 1, n: -1 });
  const content = new Schema<ContentDoc>(
    {
      _id: String,
      key: { type: String, required: true },
      body: { type: String, required: true },
    },
    { versionKey: false },
  );
  content.index({ key: 1 });
  return {
    links: conn.model<LinkDoc>('ChainLink', link, 'chain_links'),
    heads: conn.model<HeadDoc>(
      'ChainHead',
      new Schema<HeadDoc>({ _id: String, n: { type: Number, required: true } }, { versionKey: false }),
      'chain_heads',
    ),
    contents: conn.model<ContentDoc>('ChainContent', content, 'chain_contents'),
  };
}
