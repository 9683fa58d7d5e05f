/**
 * The multi-shop wallboard sizes its digits from every shop's counts: a count that grows wider on a shop
 * other than the first is redrawn whole at once, not cut until the first shop's state changes.
 */
import { render } from 'ink-testing-library';
import { afterEach, expect, it } from 'vitest';
import { buildKeymap } from '../../src/shell/commands/keymap.js';
import { type AppState, createAppStore } from '../../src/store/app-store.js';
import { type AppServices, AppServicesContext } from '../../src/ui-kit/app-context.js';
import { createClock } from '../../src/ui-kit/clock.js';
import { multiWallboard } from '../../src/wallboard/multi-wallboard.js';
import { startSim } from '../support/sim.js';

const NOW = Date.parse('2026-03-10T15:00:00Z');
let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

let me: NonNullable<AppState['me']['data']>;

/** A store holding the simulator's /me, saying `unreplied` reviews (the rest unread). */
function storeWith(unreplied: number) {
  const store = createAppStore({ columns: 80, rows: 40 });
  setUnreplied(store, unreplied);
  return store;
}
function setUnreplied(store: ReturnType<typeof createAppStore>, unreplied: number) {
  store.setState((state: AppState) => ({
    me: { ...state.me, data: { ...me, reviews_pulse: { ...me.reviews_pulse, unreplied } } },
  }));
}

it("redraws when only shop B's count grows wider, and shows it whole", async () => {
  me = await (await startSim()).client('read').getMe();
  const north = storeWith(3);
  const south = storeWith(4);
  const Screen = multiWallboard([
    { name: 'north', store: north },
    { name: 'south', store: south },
  ]);
  const services: AppServices = {
    store: north,
    clock: createClock(() => NOW),
    keymap: buildKeymap(),
    commandContext: () => ({}) as ReturnType<AppServices['commandContext']>,
    mouse: undefined,
  };
  const rendered = render(
    <AppServicesContext.Provider value={services}>
      <Screen height={40} />
    </AppServicesContext.Provider>,
  );
  unmount = rendered.unmount;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  await settle();
  const before = rendered.lastFrame() ?? '';
  // Only the second shop's count changes, from one digit to seven.
  setUnreplied(south, 1234567);
  await settle();
  const after = rendered.lastFrame() ?? '';
  expect(after).not.toBe(before);
  // The new count is shown whole: its digits at a scale that fits the tile, nothing cut with "…".
  expect(after).toContain('1234567 unreplied');
  const cut = (frame: string) => frame.split('\n').filter((line) => line.includes('█') && line.includes('…'));
  expect(cut(before)).toEqual([]);
  expect(cut(after)).toEqual([]);
});
