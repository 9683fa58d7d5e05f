/**
 * A pane, described once: its id and title, the component that draws it, the
 * list its selection moves in, what it reads, which "new" marks it shows, and
 * its own commands. The tabs, 1–N, the poller's plan, the help and the
 * palette come from these descriptors: a new pane is one file and one line
 * in registry.ts.
 */
import type { ComponentType } from 'react';
import type { Slot } from '../poller/refresh-plan.js';
import type { AppState } from '../store/app-store.js';
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
  /** The "new" marks it shows: staff have seen them once they leave the pane. */
  seen: readonly SeenKind[];
  /** From 120 columns, this pane and that one share the screen (this one on the left). */
  beside?: string;
  /** The pane beside it shares the screen only while this holds (absent: always). */
  besideWhile?(state: AppState): boolean;
  /** A filter or search line: 'local' filters the loaded page, 'remote' asks the service. */
  filter?: 'local' | 'remote';
  commands: readonly Command[];
}
