// The fixed answers of commands that return nothing of their own (docs/api.md "REST API").

/** Awaits a delete and answers {"status":"deleted"}. */
export async function deleted(command: Promise<unknown>): Promise<{ status: 'deleted' }> {
  await command;
  return { status: 'deleted' };
}

/** Awaits a recorded push receipt or answer and answers {"status":"saved"}. */
export async function saved(command: Promise<unknown>): Promise<{ status: 'saved' }> {
  await command;
  return { status: 'saved' };
}
