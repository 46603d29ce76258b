// The roster import's CSV reading (server/areas/people/roster.ts): quotes, line ends, the header, and
// naming a body path as its CSV line.
import * as assert from 'uvu/assert';
import { csvLineOf, csvRows, rosterFromCsv } from '../server/areas/people/roster.js';
import { test } from './helpers/suite.js';

test('csvRows: quoted commas, doubled quotes, CRLF and LF, a byte order mark, no final newline', () => {
  assert.equal(csvRows('\uFEFFa,"b, c","say ""hi"""\r\nd,,e\nf'), [['a', 'b, c', 'say "hi"'], ['d', '', 'e'], ['f']]);
  assert.equal(csvRows('"line\nbreak",x\n'), [['line\nbreak', 'x']]);
});

test('rosterFromCsv: columns in any order, units split on ;, empty cells and blank lines left out', () => {
  const { body } = rosterFromCsv('Units,NAME,mobile\nHLF 20; DLK 23 ;,Alex,+491701234567\n\n ,, \nKim,,\n');
  assert.equal(body, {
    members: [{ units: ['HLF 20', 'DLK 23'], name: 'Alex', mobile: '+491701234567' }, { units: ['Kim'] }],
  });
});

test("rosterFromCsv: a body path is named by the file's own line, blank lines and quoted line breaks counted", () => {
  const { line } = rosterFromCsv('name,mobile\nA,1\n\n"B\nC",2\r\nD,3\n');
  assert.is(line('members.0.mobile'), 'line 2: mobile');
  assert.is(line('members.1.name'), 'line 4: name');
  assert.is(line('members.2'), 'line 6');
});

test('rosterFromCsv: a header without name or with an unknown column is refused on line 1', () => {
  for (const text of ['mobile,phone\n1,2\n', 'name,email\nA,a@b\n', '']) {
    try {
      rosterFromCsv(text);
      assert.unreachable(`accepted ${JSON.stringify(text)}`);
    } catch (err) {
      assert.is((err as { details: Array<{ path: string }> }).details[0].path, 'line 1');
    }
  }
});

test('csvRecords: a quote never closed is refused on the line it opens', () => {
  try {
    csvRows('name\nAlex\n"Bob,\nCarl\n');
    assert.unreachable('accepted');
  } catch (err) {
    assert.is((err as { details: Array<{ path: string }> }).details[0].path, 'line 3');
  }
});

test('csvLineOf: members.N is line N+2 (the header is line 1)', () => {
  assert.is(csvLineOf('members.0.name'), 'line 2: name');
  assert.is(csvLineOf('members.998'), 'line 1000');
  assert.is(csvLineOf('(body)'), '(body)');
});

test.run();
