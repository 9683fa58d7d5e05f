/**
 * Checks of a whole screen read through the headless xterm: that a program
 * has stopped drawing for a while, the screen with its clock-driven ages
 * masked (so that two readings a second apart compare equal), that every
 * row of the inbox's list shows one record (a name beside that contact's own
 * phone number), and that every box is closed: its sides run straight from
 * its top corners to its bottom ones.
 */
import type { Terminal as XTerm } from '@xterm/headless';
import { oneLine } from '../../src/ui-kit/format.js';
import type { PtyTerminal } from './pty-terminal.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the program has written nothing for `quietMs` and the xterm has parsed all of it. */
export async function untilQuiet(terminal: PtyTerminal, quietMs = 300, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let length = -1;
  while (length !== terminal.output().length) {
    if (Date.now() > deadline) throw new Error(`still drawing after ${timeoutMs} ms`);
    length = terminal.output().length;
    await sleep(quietMs);
  }
  await terminal.settle();
}

/**
 * Waits until the screen, ages blanked, reads the same twice `apartMs` apart: reads that come after the
 * first lists (the shop's name, a contact's details in the thread) have landed. Returns that screen.
 */
export async function untilSteady(
  terminal: PtyTerminal,
  apartMs = 1_000,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  await untilQuiet(terminal);
  let screen = withoutAges(terminal.lines());
  for (;;) {
    await sleep(apartMs);
    await terminal.settle();
    const again = withoutAges(terminal.lines());
    if (again === screen) return screen;
    if (Date.now() > deadline) throw new Error(`the screen still changes after ${timeoutMs} ms:\n${again}`);
    screen = again;
  }
}

/**
 * The screen with what the clock changes blanked: "updated 3 s ago", a row's age ("now", "9m", "14d").
 * The width of an age changes with it ("9m" → "10m"), so the spaces before it go too. A pane title cut
 * to fit ("updated 4 s …") changes where it is cut as the age grows, so all of it up to the pane's
 * border goes.
 */
export function withoutAges(lines: readonly string[]): string {
  return lines
    .map((line) =>
      line.replace(/updated \d+ (s|min|h)[^│]*/g, 'updated ~').replace(/ *\b(\d+[smhd]|now)\b/g, ' ~'),
    )
    .join('\n');
}

/** A row of the inbox's list: its name column, then a phone number. */
const LIST_ROW = /^│[ ●]*(.+?) +(\+\d{11}) /;

/**
 * The rows of the list that do not show one record: the name beside a phone number is not (the start
 * of) a name of a contact with that number. `contacts` are the simulator's.
 */
export function mismatchedListRows(
  lines: readonly string[],
  contacts: ReadonlyArray<{ name: string; phone: string }>,
): string[] {
  const namesByPhone = new Map<string, string[]>();
  for (const contact of contacts) {
    namesByPhone.set(contact.phone, [...(namesByPhone.get(contact.phone) ?? []), oneLine(contact.name)]);
  }
  return lines.filter((line) => {
    const row = LIST_ROW.exec(line);
    if (!row) return false;
    const shown = (row[1] ?? '').trim().replace(/…$/, '');
    const names = namesByPhone.get(row[2] ?? '') ?? [];
    return !names.some((name) => name.startsWith(shown));
  });
}

/** How many rows of the screen are list rows (a name and a phone number). */
export function listRowCount(lines: readonly string[]): number {
  return lines.filter((line) => LIST_ROW.test(line)).length;
}

/**
 * The rows where a box on screen is broken: for each top left corner, the box's left and right sides
 * must run down, in the corners' columns, to its bottom corners. Read cell by cell (a wide character
 * takes two columns of the screen and one of a string).
 */
export function brokenBoxRows(term: XTerm): string[] {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const at = (x: number, y: number) =>
    buffer
      .getLine(buffer.viewportY + y)
      ?.getCell(x, cell)
      ?.getChars() ?? '';
  const broken: string[] = [];
  for (let top = 0; top < term.rows; top += 1) {
    for (let left = 0; left < term.cols; left += 1) {
      if (at(left, top) !== '┌') continue;
      let right = left + 1;
      while (right < term.cols && at(right, top) === '─') right += 1;
      if (at(right, top) !== '┐') {
        broken.push(`row ${top}: the box at column ${left} has no top right corner`);
        continue;
      }
      let y = top + 1;
      for (; y < term.rows && at(left, y) === '│'; y += 1) {
        if (at(right, y) !== '│')
          broken.push(`row ${y}: the right side of the box at column ${left} is missing`);
      }
      if (at(left, y) !== '└' || at(right, y) !== '┘')
        broken.push(`row ${y}: the box at column ${left} is not closed`);
    }
  }
  return broken;
}

/** The phone number of the simulator's newest lead (a missed call just injected). */
export function newestLeadPhone(shop: {
  leads: ReadonlyArray<{ createdAt: number; contactId: string }>;
  contacts: ReadonlyArray<{ id: string; phone: string }>;
}): string {
  const newest = [...shop.leads].sort((a, b) => b.createdAt - a.createdAt)[0];
  const phone = shop.contacts.find((contact) => contact.id === newest?.contactId)?.phone;
  if (!phone) throw new Error('the simulator has no lead with a contact');
  return phone;
}
