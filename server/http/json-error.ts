// Where a JSON text goes wrong, as line and column, for the 400 a client gets. JSON.parse says
// "at position N" only for some errors, so the text is scanned once more (iteratively: bodies may nest
// deeply) — only after parsing failed.

/** Line and column (both from 1) of the first syntax error of `text`, and what was expected there. */
export function locateJsonError(text: string): { line: number; column: number; expected: string } {
  const { offset, expected } = scan(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column, expected };
}

const LITERALS = ['true', 'false', 'null'];
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
// JSON forbids raw control characters inside strings, so the pattern must name them.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

function scan(text: string): { offset: number; expected: string } {
  let i = 0;
  // What the parser waits for next: a value, a key, or the separator after an item of an object/array.
  const stack: Array<'object' | 'array'> = [];
  let want: 'value' | 'key' | 'colon' | 'after' = 'value';
  const fail = (expected: string) => ({ offset: i, expected });
  const skip = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const match = (re: RegExp) => {
    re.lastIndex = i;
    return re.exec(text)?.[0].length ?? 0;
  };
  for (;;) {
    skip();
    if (want === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c === '{' ? 'object' : 'array');
        i++;
        skip();
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          want = 'after';
        } else want = c === '{' ? 'key' : 'value';
        continue;
      }
      const literal = LITERALS.find((l) => text.startsWith(l, i));
      const length = c === '"' ? match(STRING) : literal ? literal.length : match(NUMBER);
      if (!length)
        return fail(
          i >= text.length
            ? 'a value, but the body ends'
            : 'a value (string, number, object, array, true, false or null)',
        );
      i += length;
      want = 'after';
    } else if (want === 'key') {
      const length = text[i] === '"' ? match(STRING) : 0;
      if (!length) return fail('a property name in double quotes');
      i += length;
      want = 'colon';
    } else if (want === 'colon') {
      if (text[i] !== ':') return fail("':' after the property name");
      i++;
      want = 'value';
    } else {
      const top = stack.at(-1);
      if (!top)
        return i < text.length ? fail('the end of the body after the value') : fail('nothing: the JSON is valid');
      const close = top === 'object' ? '}' : ']';
      if (text[i] === ',') {
        i++;
        skip();
        if (text[i] === close)
          return fail(
            top === 'object' ? 'another property (no trailing comma)' : 'another element (no trailing comma)',
          );
        want = top === 'object' ? 'key' : 'value';
      } else if (text[i] === close) {
        stack.pop();
        i++;
      } else return fail(`',' or '${close}'${i >= text.length ? ', but the body ends' : ''}`);
    }
  }
}
