/**
 * Settlers run inside each update of the store, before anyone hears of it: what they add is part of the
 * same update, heard once; a notice they set is logged like any other; settling ends even when a settler
 * never does; a change of nothing is still not heard.
 */
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../src/store/app-store.js';

const store = () => createAppStore({ columns: 80, rows: 24, machineTimeZone: 'UTC' });

describe('settling each update of the store', () => {
  it('adds to the same update, heard once, and logs the notice a settler sets', () => {
    const app = store();
    app.settleWith((state) =>
      state.rows === 30 && state.notice === undefined
        ? { notice: { text: 'taller now', tone: 'info', at: 1 } }
        : undefined,
    );
    const heard: Array<{ rows: number; notice: string | undefined }> = [];
    app.subscribe((state) => heard.push({ rows: state.rows, notice: state.notice?.text }));
    app.setState({ rows: 30 });
    expect(heard).toEqual([{ rows: 30, notice: 'taller now' }]);
    expect(app.getState().log.at(-1)?.text).toBe('taller now');
  });

  it('ends after a few rounds when a settler always adds something', () => {
    const app = store();
    let calls = 0;
    app.settleWith((state) => {
      calls++;
      return { rows: state.rows + 1 };
    });
    let heard = 0;
    app.subscribe(() => heard++);
    app.setState({ rows: 10 });
    expect(heard).toBe(1);
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThanOrEqual(8);
    expect(app.getState().rows).toBe(10 + calls);
  });

  it('hears nothing of an update that changes nothing, and a removed settler no longer runs', () => {
    const app = store();
    let calls = 0;
    const remove = app.settleWith(() => {
      calls++;
      return undefined;
    });
    let heard = 0;
    app.subscribe(() => heard++);
    app.setState((state) => state);
    expect(heard).toBe(0);
    app.setState((state) => state, true);
    expect(heard).toBe(0);
    remove();
    const before = calls;
    app.setState({ rows: 12 });
    expect(calls).toBe(before);
    expect(heard).toBe(1);
  });

  it('keeps the whole state when an update replaces it and a settler adds to it', () => {
    const app = store();
    app.settleWith((state) => (state.rows === 33 ? { searching: true } : undefined));
    app.setState({ ...app.getState(), rows: 33 }, true);
    expect(app.getState().searching).toBe(true);
    expect(app.getState().columns).toBe(80);
  });
});
