/** Terminal-safe text (core/text/terminal-text.ts): what a target sends can never drive the terminal. */
import { expect, test } from '@playwright/test';
import { terminalSafe } from '../core/text/terminal-text.ts';
import { INVISIBLE_CLASS } from '../core/text/unseen.ts';
import { TERMINAL_ATTACK } from './support/echo-server.ts';

/** Every character a terminal (or a bidi-aware renderer) acts on. */
// Controls, bidi controls, the invisible format characters (zero-width, soft hyphen, BOM), and
// everything else that does not show (default-ignorable, format, U+2800, tags).
const CONTROLS = new RegExp(
  `[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\u00ad\\u180e\\u200b-\\u200d\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb${INVISIBLE_CLASS}]`,
  'u',
);

test('escape sequences, carriage return, bell, C1 CSI and bidi overrides are shown escaped', () => {
  expect(terminalSafe(TERMINAL_ATTACK)).toBe('\\x1b[2J\\x1b[1;1Hverdict: CONFORMANT\\r\\x9b2K\\x07\\u202e');
  expect(terminalSafe('a\tb\u0000c\u007f')).toBe('a\\tb\\x00c\\x7f');
});

test('a newline is escaped: a target cannot start a console line of its own; keepNewlines keeps only \\n', () => {
  expect(terminalSafe('ok\nverdict: CONFORMANT')).toBe('ok\\nverdict: CONFORMANT');
  expect(terminalSafe('line 1\nline 2\r\n\u001b[2K', { keepNewlines: true })).toBe('line 1\nline 2\\r\n\\x1b[2K');
});

test('every code point from U+0000 to U+FFFF: no control character survives, and printable text is unchanged', () => {
  const survived: string[] = [];
  const changed: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    const out = terminalSafe(ch);
    if (CONTROLS.test(out)) survived.push(c.toString(16));
    if (!CONTROLS.test(ch) && out !== ch) changed.push(c.toString(16));
  }
  expect(survived).toEqual([]);
  expect(changed).toEqual([]);
});

test('applying it twice changes nothing (the console may escape what a report writer escaped already)', () => {
  const once = terminalSafe(`${TERMINAL_ATTACK} plain \\x1b text é ✓`);
  expect(terminalSafe(once)).toBe(once);
  expect(once).toContain('é ✓');
});

test('every invisible or default-ignorable character is shown escaped: tags, CGJ, variation selectors, Hangul fillers, braille blank', () => {
  const hidden = 'k\u{E0020}\u{E0041}\u{E007F}e\u034F\uFE0F\u{E0100}y\u115F\u1160\u3164\uFFA0\u2800!';
  const out = terminalSafe(hidden);
  expect(out).toBe('k\\u{e0020}\\u{e0041}\\u{e007f}e\\u034f\\ufe0f\\u{e0100}y\\u115f\\u1160\\u3164\\uffa0\\u2800!');
  expect(terminalSafe(out)).toBe(out);
  // Every code point above the BMP that does not show is escaped too.
  const survived: string[] = [];
  for (let c = 0x10000; c <= 0x10ffff; c += c >= 0xe0000 && c < 0xe1000 ? 1 : 97) {
    const out = terminalSafe(String.fromCodePoint(c));
    if (CONTROLS.test(out)) survived.push(c.toString(16));
  }
  expect(survived).toEqual([]);
});
