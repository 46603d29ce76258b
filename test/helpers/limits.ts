// Rate limits are token buckets (server/http/rate-limit.ts): `burst` at once, then `perSecond` refilled.
// A test that spends a budget cannot know how long its requests take on a busy machine, so it counts
// what was accepted until the first refusal and allows what the bucket refilled meanwhile.
import * as assert from 'uvu/assert';

/**
 * Sends `batch` requests at once until one is refused (429 / a refusal `send` reports), then asserts that
 * between `burst` and `burst` plus the tokens refilled while they ran were accepted. Every answer must be
 * one of `accepted` or the refusal. Returns the answers in order.
 */
export async function spendBudget<T>(
  send: () => Promise<T>,
  limit: { burst: number; perSecond: number; accepted: T; refused: T; batch?: number; what: string },
): Promise<T[]> {
  const answers: T[] = [];
  const started = performance.now();
  while (!answers.includes(limit.refused)) {
    assert.ok(answers.length < limit.burst * 10, `${limit.what}: never refused after ${answers.length}`);
    answers.push(...(await Promise.all(Array.from({ length: limit.batch ?? 1 }, send))));
  }
  const refilled = Math.ceil(((performance.now() - started) / 1000) * limit.perSecond);
  const accepted = answers.filter((a) => a === limit.accepted).length;
  assert.ok(
    answers.every((a) => a === limit.accepted || a === limit.refused),
    `${limit.what}: ${answers.join(',')}`,
  );
  assert.ok(
    accepted >= limit.burst && accepted <= limit.burst + refilled,
    `${limit.what}: ${accepted} accepted, expected ${limit.burst} plus at most ${refilled} refilled: ` +
      `${answers.join(',')}`,
  );
  return answers;
}
