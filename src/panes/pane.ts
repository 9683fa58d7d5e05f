/**
 * A pane, described once: its id and title, the component that draws it, the
 * list its selection moves in, what it reads, what staff choose in it, which
 * "new" marks it clears, what it does when focused, and its own commands. The
 * tabs, 1–N, the poller's plan, the help, the palette, selection following and
 * "new" marks come from these descriptors: a new pane is one file and one
 * line in registry.ts.
 */
import type { ComponentType } from 'react';
import type { Slot } from '../poller/reads.js';
import type { AppState, PaneId } from '../store/app-store.js';
import type { SeenKind } from '../store/seen.js';
import type { ListShape } from '../store/selection.js';
import type { Command } from '../ui-kit/commands/command.js';

export interface PaneProps {
  height: number;
  width?: number | string;
  /** Columns the pane has on screen, borders included: the terminal's, or its share beside another pane. */
  columns: number;
  focused: boolean;
}

export interface PaneList<T> {
  /** The rows as shown (filters applied), with how to tell them apart. */
  of(state: AppState): ListShape<T>;
  /** What one row is called in a sentence: "lead", "review". */
  noun: string;
  /** A row's name for "the lead of Ray Whitaker left the list". */
  rowLabel(row: T): string;
  /**
   * Which list this is (a search's answer, a status shown): when it changes,
   * the selection starts again at the top (or, for a list that follows its
   * end, at the end) instead of following a record of the old list.
   */
  identity?(state: AppState): unknown;
  /** A record that left because staff acted on it (an action approved here): its neighbour is selected quietly. */
  leftBecauseOfUs?(state: AppState, id: string): boolean;
  /**
   * A feed whose new rows come on top (Today's activity): while the pane is off screen, a selection on its
   * top row stays on the top row, so that staff come back to the newest; anywhere else, and in any other
   * list, the selection keeps its record.
   */
  newestOnTop?: boolean;
}

/** The "new" marks of a pane: each belongs to its item and goes once staff have that item in front of them. */
export interface PaneMarks {
  /** The kinds of mark its rows carry: its tab counts them. */
  kinds: readonly SeenKind[];
  /**
   * The ids staff have in front of them while the pane is on screen, per kind: their marks go. Absent: the
   * record selected in its list, a mark of its first kind.
   */
  inSight?(state: AppState): ReadonlyArray<readonly [SeenKind, readonly string[]]>;
  /**
   * The conversations (lead ids) staff have open while the pane is on screen: their inbound texts are read
   * (the unread mark goes, src/store/conversation-marks.ts).
   */
  opened?(state: AppState): readonly string[];
  /** How many marks its tab counts. Absent: the "new" marks of its kinds. */
  count?(state: AppState): number;
}

/**
 * A pane that shows the record highlighted in another pane's list (the Thread
 * shows the lead highlighted in the Inbox or in Contacts): when that record
 * leaves its list while the list is off screen, this pane says what it shows
 * now; and it may hold on to a record staff's own doing took off the list.
 */
export interface ShowsHighlighted {
  /** The pane whose highlighted record it shows now; undefined: a record of its own. */
  from(state: AppState): PaneId | undefined;
  /** The id of the record it shows. */
  record(state: AppState): string | undefined;
  /** What it shows now, in a clause: "the thread shows Ray Whitaker (…) now". */
  nowShowing(state: AppState): string;
  /**
   * The record it showed left its list (not by a filter staff changed) while this pane is focused: the
   * update that keeps showing it, or undefined to follow the list to its next record.
   */
  keep?(state: AppState, shown: string): Partial<AppState> | undefined;
}

/** A search the service answers: what was asked last, and how to ask it for a query. */
export interface RemoteSearch {
  asked(state: AppState): string;
  ask(state: AppState, query: string): { update: Partial<AppState>; read: Slot };
}

export interface PaneDescriptor {
  id: string;
  /** The tab's title. */
  title: string;
  Component: ComponentType<PaneProps>;
  // biome-ignore lint/suspicious/noExplicitAny: each pane lists its own kind of row
  list?: PaneList<any>;
  /** What this pane shows, read often while it is on screen. */
  reads(state: AppState): Slot[];
  /** Its "new" marks (leaving the pane clears nothing). */
  seen?: PaneMarks;
  /**
   * What staff choose here that changes its list (a filter, an order, a status shown): a list that moved
   * because one of these changed moved because they asked, and its selection follows quietly.
   */
  choices?(state: AppState): readonly unknown[];
  /** It shows the record highlighted in another pane's list. */
  shows?: ShowsHighlighted;
  /** Staff come to this pane: what changes with it, and what to read now rather than at the next refresh. */
  onFocus?(state: AppState): { update?: Partial<AppState>; readNow?: readonly Slot[] };
  /** From 120 columns, this pane and that one share the screen (this one on the left). */
  beside?: string;
  /** The pane beside it shares the screen only while this holds (absent: always). */
  besideWhile?(state: AppState): boolean;
  /** A filter or search line: 'local' filters the loaded page; a remote search asks the service. */
  filter?: 'local' | RemoteSearch;
  commands: readonly Command[];
}
