// uvu's `suite` and `test`, with one difference: an error thrown by a before() or after() hook is
// written to stderr, named by its suite and hook. uvu counts such a suite's tests as not passed but
// keeps the error to itself, so without this a failing set-up shows as "0 passed" and nothing else.
// Every test file takes `suite` and `test` from here (an ESLint rule says so).
// eslint-disable-next-line no-restricted-imports
import { suite as uvuSuite, type Callback, type Test } from 'uvu';

type Context = Record<string, any>; // uvu's own default

function told<T>(name: string, hook: string, fn: Callback<T>): Callback<T> {
  return async (context) => {
    try {
      await fn(context);
    } catch (err) {
      process.stderr.write(
        `\n✘ ${name || '(file)'}: ${hook}() failed, so its tests did not run:\n${err instanceof Error ? err.stack : String(err)}\n`,
      );
      throw err;
    }
  };
}

export function suite<T = Context>(name = '', state?: T): Test<T> {
  const s = uvuSuite<T>(name, state);
  for (const hook of ['before', 'after'] as const) {
    const own = s[hook];
    const reporting = (fn: Callback<T>) => own(told(name, hook, fn));
    // Per-test hooks (before.each, after.each) fail their test, which uvu reports itself.
    s[hook] = Object.assign(reporting, { each: own.each }) as typeof own;
  }
  return s;
}

export const test = suite();
export type { Test };
