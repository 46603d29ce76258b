// Mongoose field types the channel areas' models share.
export const opts = { versionKey: false } as const;
export const int = { type: Number, required: true } as const;
export const intOrNull = { type: Number, default: null } as const;
export const date = { type: Date, required: true } as const;
export const text = { type: String, required: true } as const;
export const flag = { type: Boolean, required: true } as const;
/** A document's revision: partial updates change it only under a revision claim (server/db/revisions.ts). */
export const rev = { type: Number } as const;
