/** The store, the clock and the keys, for every component below the root. */
import { type ComponentType, createContext, useContext, useRef } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from '../store/app-store.js';
import { type Clock, useNow } from './clock.js';
import type { CommandContext, Keymap } from './commands/command.js';
import type { Mouse } from './mouse.js';
import { THEMES, type Theme } from './theme.js';

export interface AppServices {
  store: AppStore;
  clock: Clock;
  keymap: Keymap;
  /** A command context for asking commands whether they apply now (the help, the hints). */
  commandContext(): CommandContext;
  /** Clickable regions; absent when the mouse is off. */
  mouse: Mouse | undefined;
  /** The wallboard's screen, loaded only when the wallboard is shown. */
  Wallboard?: ComponentType<{ height: number }> | undefined;
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('AppServicesContext is missing');
  return services;
}

/** A narrow, shallow-compared selection: the component re-renders only when it changes. */
export function useAppState<T>(selector: (state: AppState) => T): T {
  const last = useRef<T | undefined>(undefined);
  return useStore(useServices().store, (state) => {
    const next = selector(state);
    if (sameSelection(last.current, next)) return last.current as T;
    last.current = next;
    return next;
  });
}

/**
 * Whether two selections hold the same things, as zustand's `shallow` decides (the values of an object's own
 * keys, an array's items, a map's entries, a set's members, each by `Object.is`; objects of another prototype
 * differ), without its cost: `shallow` builds a Map of each object's entries at every comparison, and every
 * pane's selections are compared at every change of the store (5 % of what a key press allocated).
 */
export function sameSelection(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let index = 0; index < a.length; index++) if (!Object.is(a[index], other[index])) return false;
    return true;
  }
  if (a instanceof Map) {
    const other = b as Map<unknown, unknown>;
    if (a.size !== other.size) return false;
    for (const [key, value] of a) if (!other.has(key) || !Object.is(value, other.get(key))) return false;
    return true;
  }
  if (a instanceof Set) {
    const other = b as Set<unknown>;
    if (a.size !== other.size) return false;
    for (const member of a) if (!other.has(member)) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key)) continue;
    keys++;
    if (!Object.hasOwn(right, key) || !Object.is(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key)) keys--;
  return keys === 0;
}

export function useClockNow(): number {
  return useNow(useServices().clock);
}

/** The colour of each role (none at all under NO_COLOR); the dark theme unless one is provided. */
export const ThemeContext = createContext<Theme>(THEMES.dark);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
