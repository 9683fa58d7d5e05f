/**
 * Colours are data: one table of roles per theme, and every component asks
 * for a role ("danger", "accent"), never for a colour. Colour is never the
 * only signal: every role's meaning is also in words, bold or inverse, so
 * the `none` theme (NO_COLOR) loses no information.
 */

/** What a colour means on screen. */
export interface Theme {
  name: 'dark' | 'light' | 'none';
  /** Focus, titles, hints, what is being typed. */
  accent: string | undefined;
  /** Borders and text that are there but not in focus. */
  muted: string | undefined;
  /** Errors, refusals, same-day urgency, a text not sent. */
  danger: string | undefined;
  /** Waiting, pending, unreplied, "new" marks. */
  warning: string | undefined;
  /** Done: sent, active, replied, approved. */
  success: string | undefined;
  /** A customer's text in a thread. */
  inbound: string | undefined;
  /** The shop's text in a thread. */
  outbound: string | undefined;
  /** The palette and reply drafts: things the program offers. */
  special: string | undefined;
  /** The [READ-ONLY] badge: these colours, or inverse video without colour. */
  badge: { color: string; backgroundColor: string } | undefined;
}

/** A role that is one colour (not the badge's pair). */
export type ColourRole = Exclude<keyof Theme, 'name' | 'badge'>;

export const THEMES: Record<Theme['name'], Theme> = {
  dark: {
    name: 'dark',
    accent: 'cyan',
    muted: 'gray',
    danger: 'red',
    warning: 'yellow',
    success: 'green',
    inbound: 'yellow',
    outbound: 'blue',
    special: 'magenta',
    badge: { color: 'black', backgroundColor: 'yellow' },
  },
  // On a light background, yellow and cyan text are barely readable: darker colours of the same meanings.
  light: {
    name: 'light',
    accent: 'blue',
    muted: 'gray',
    danger: 'red',
    warning: '#8a5a00',
    success: '#1a7f37',
    inbound: '#8a5a00',
    outbound: 'blue',
    special: 'magenta',
    badge: { color: 'white', backgroundColor: '#8a5a00' },
  },
  none: {
    name: 'none',
    accent: undefined,
    muted: undefined,
    danger: undefined,
    warning: undefined,
    success: undefined,
    inbound: undefined,
    outbound: undefined,
    special: undefined,
    badge: undefined,
  },
};

export type ThemeChoice = 'auto' | 'dark' | 'light';

/** NO_COLOR set and not empty (no-color.org): no colour at all, whatever else says so. */
export const noColorWanted = (env: NodeJS.ProcessEnv): boolean => Boolean(env.NO_COLOR);

/**
 * The background from COLORFGBG ("15;0", "0;default;15": the last field is the background's
 * colour number, as rxvt, Konsole and iTerm2 set it): 7 and 9–15 are light, the rest dark.
 */
export function backgroundFromEnv(env: NodeJS.ProcessEnv): 'dark' | 'light' | undefined {
  const last = env.COLORFGBG?.split(';').at(-1)?.trim();
  if (!last || !/^\d{1,2}$/.test(last)) return undefined;
  const colour = Number(last);
  return colour === 7 || (colour >= 9 && colour <= 15) ? 'light' : 'dark';
}

export function chooseTheme(choice: ThemeChoice, env: NodeJS.ProcessEnv): Theme {
  if (noColorWanted(env)) return THEMES.none;
  if (choice === 'dark' || choice === 'light') return THEMES[choice];
  return THEMES[backgroundFromEnv(env) ?? 'dark'];
}

/** Ink props for a role's colour: none at all when the role has none (so no colour byte is written). */
export const fg = (colour: string | undefined): { color?: string } => (colour ? { color: colour } : {});
