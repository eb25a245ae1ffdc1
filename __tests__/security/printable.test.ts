import { gzipSync } from 'node:zlib';
import { excerpt, hexPreview, isBinary, printable, printableBody, quoted } from '../../src/printable';
import { cpuMsSync } from '../helpers/timing';

describe('printable: input shown on a terminal cannot drive it', () => {
  it('escapes escape sequences, bell, backspace, carriage return, DEL and C1 controls; keeps newlines and tabs', () => {
    expect(printable('\u001b[2J\u001b[32mPASS\u001b[0m\u0007')).toBe('\\x1b[2J\\x1b[32mPASS\\x1b[0m\\x07');
    expect(printable('FAIL\rPASS\b\u007f\u009b')).toBe('FAIL\\rPASS\\x08\\x7f\\x9b');
    expect(printable('a\n\tb')).toBe('a\n\tb');
    expect(printable('\u001b]0;window title\u0007')).toBe('\\x1b]0;window title\\x07');
  });

  it('escapes bidirectional overrides and isolates and lone surrogates, keeps every other character', () => {
    expect(printable('a\u202eb\u2066c\u2069\u200f\ufeff')).toBe('a\\u{202e}b\\u{2066}c\\u{2069}\\u{200f}\\u{feff}');
    expect(printable('x\ud800y')).toBe('x\\u{d800}y');
    expect(printable('été 😀 名前 \\x1b')).toBe('été 😀 名前 \\x1b');
  });

  it('on one line, newlines and tabs are escaped too', () => {
    expect(printable('a\nb\tc', { multiline: false })).toBe('a\\nb\\tc');
  });

  it('quoted and excerpt cut long input to a short piece and say how much more there was', () => {
    expect(quoted('abc')).toBe('"abc"');
    expect(quoted('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoted('x'.repeat(30_000))).toBe(`"${'x'.repeat(80)}… (29920 more characters)"`);
    expect(excerpt('line one\nline two')).toBe('line one\\nline two');
    expect(excerpt('y'.repeat(11), 10)).toBe('yyyyyyyyyy… (1 more character)');
    // Counted in characters, never half a surrogate pair.
    expect(excerpt(`${'a'.repeat(9)}😀😀😀`, 10)).toBe('aaaaaaaaa😀… (2 more characters)');
    expect(excerpt('😀'.repeat(10), 10)).toBe('😀'.repeat(10));
  });

  it('a binary body is a hex preview with its length; text bodies are text, cut at the limit', () => {
    const gz = gzipSync('hello');
    expect(isBinary(gz)).toBe(true);
    expect(isBinary(Buffer.from('plain é text'))).toBe(false);
    expect(isBinary(Buffer.from('nul\0inside'))).toBe(true);
    expect(printableBody('ignored', gz)).toBe(hexPreview(gz));
    expect(hexPreview(gz)).toMatch(new RegExp(`^<binary, ${gz.length} bytes: 1f 8b 08 00 [0-9a-f ]+>$`));
    expect(hexPreview(Buffer.alloc(100))).toBe(`<binary, 100 bytes: ${Array(32).fill('00').join(' ')} …>`);
    expect(printableBody('a\u001bb', Buffer.from('a\u001bb'))).toBe('a\\x1bb');
    expect(printableBody('z'.repeat(50), undefined, 10)).toBe('zzzzzzzzzz… (40 more characters)');
  });

  it('is linear: a megabyte of control characters is escaped in well under a second', () => {
    // Four megabytes of output, made of a million replacements: bounded by writing them, not by searching.
    const ms = cpuMsSync(() => printable('\u001b'.repeat(1 << 20)));
    expect(ms).toBeLessThan(1_000);
  });
});
