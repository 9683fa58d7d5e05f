/** The store, the clock and the keys, for every component below the root. */
import { type ComponentType, createContext, useContext } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/shallow';
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
  return useStore(useServices().store, useShallow(selector));
}

export function useClockNow(): number {
  return useNow(useServices().clock);
}

/** The colour of each role (none at all under NO_COLOR); the dark theme unless one is provided. */
export const ThemeContext = createContext<Theme>(THEMES.dark);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
