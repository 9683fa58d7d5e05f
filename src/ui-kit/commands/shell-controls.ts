/**
 * What a command, a pane or a component of the kit may ask of the screen
 * around it: focus and the selection, the thread, the search line, the
 * composer and its questions, the palette and the templates, the shop. The
 * shell's controller (src/shell/controller.ts) implements it; everything below
 * the shell knows only this interface, so nothing there imports the shell. A
 * command that needs something new of the controller adds it here too.
 */
import type { Contact, InboxLead } from '../../contract/resources.js';
import type { AppState, Notice, PaneId, Prompt, ThreadSource } from '../../store/app-store.js';
import type { Cut, LineText } from '../../store/line-editor.js';

export interface ShellControls {
  /** A line in the status bar (and the message log). */
  notify(text: string, tone?: Notice['tone']): void;
  /** Puts text on the terminal's clipboard (OSC 52) and says what was copied; `what` names it ("Ray's phone"). */
  copy(what: string, text: string): void;

  focusPane(id: PaneId): void;
  cyclePane(step: 1 | -1): void;
  /** Selects row `index` of a pane's list (clamped to it). */
  select(id: PaneId, index: number): void;
  /** Moves a pane's selection (the focused pane's unless named). */
  move(to: (current: number, length: number) => number, id?: PaneId): void;

  /** Shows, in the Thread pane, the lead highlighted in `from` (read again now), on its newest text. */
  openThread(from: ThreadSource): void;
  /** Another list in a pane, as staff chose (a filter, a status shown): the update, and its selection at the top. */
  showList(id: PaneId, update: Partial<AppState>): void;

  startSearch(): void;
  finishSearch(): void;
  clearSearch(): void;

  composeToLead(lead: InboxLead): void;
  composeToThread(): void;
  composeToContact(contact: Contact): void;
  closeComposer(): void;
  /** enter in the composer: the question, with the exact text and every finding. */
  askToSend(batch: number): void;
  /** The composed text in the user's editor. */
  openEditor(): void;
  /** Whether an editor can be opened here (only a real terminal can be handed over). */
  editorAvailable(): boolean;

  openTemplates(): void;
  closeTemplates(): void;
  moveTemplates(step: number): void;
  insertTemplate(): void;

  /** An edit of the line being typed: the palette's query, the composer's text, the search, a typed word. */
  editLine(edit: (line: LineText) => LineText): void;
  /** A kill of the line being typed; yank puts it back. */
  cutLine(edit: (line: LineText) => Cut): void;
  yank(): void;

  ask(prompt: Prompt, batch: number): void;
  /** Scrolls the approval question's box by rows (no other question scrolls). */
  scrollQuestion(rows: number): void;
  /** The screen's clock (what a question says of an age is said as of now). */
  now(): number;
  answer(yes: boolean, batch?: number): void;
  /** enter on a question that wants a typed word. */
  submitTyped(batch?: number): void;
  /** Quits, asking first when a composed text is unsent. */
  requestQuit(batch: number): void;

  /** Whether there are shops to switch to (config.json's): not in the demo or with --base-url. */
  canSwitchShops(): boolean;
  /** The shops of config.json to switch to (asks first when a text is typed or still sending). */
  openShops(): void;
  closeShops(): void;
  moveShops(step: number): void;
  /** enter in the shops: goes on with the highlighted shop. */
  chooseShop(batch: number): void;

  openPalette(): void;
  closePalette(): void;
  movePalette(step: number, count: number): void;

  refreshVisible(): void;
  refreshAll(): void;
  /** Draws the whole screen again from scratch (ctrl-l); nothing where there is no real terminal. */
  repaint(): void;
  draft(reviewId: string): void;
  quit(): void;
}
