// The journal's failure wording: the interface's Errors table where it has a row, ours where it is
// silent (close, force-unlock, an entry's body). Routes, commands and tests share these strings.

export const wording = {
  organizationId: 'No or invalid organization_id in the request',
  category: 'No or invalid category in the request',
  categoryId: 'No or invalid categoryID in the request',
  journalQuery: 'No or invalid organization_id or event_id in the request',
  journalId: 'No or invalid journalID in the request',
  exportQuery: 'No or invalid format (csv or pdf), timeZone or lang in the request',
  entryParams: 'No or invalid journalID or entryID in the request',
  entryId: 'No or invalid entryID in the request',
  entryBody: 'No or invalid entry in the request',
  forceUnlockBody: 'No or invalid reason or category in the request',
  unauthorizedUser: 'Unauthorized user',
  categoryNotFound: 'Category not found',
  categoryInUse: 'Category already used, cannot be deleted',
  lockFailed: 'Journal already locked or closed',
  unlockFailed: 'Journal not locked, locked by another user, or closed',
  entryFailed: 'Journal not locked or locked by another user',
  alreadyClosed: 'Journal already closed',
  notLockedOrClosed: 'Journal not locked, or closed',
} as const;
