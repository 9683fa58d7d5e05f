/**
 * A running inbox whose local service (plain http on loopback) stops, and
 * whose port another user then takes: the whole session (poller, client,
 * store) sends that user nothing, says why where the connection state is
 * shown, backs off as for a service that is down, and goes on by itself once
 * this user's service is back on the port.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { visibleReads } from '../../src/panes/visible-reads.js';
import { createSession, type Session } from '../../src/session/create-session.js';
import { createSimulator } from '../../src/sim/simulator.js';
import { type ForeignListener, OTHER_UID, startForeignListener } from '../support/foreign-listener.js';
import { until } from '../support/until.js';

const asRoot = process.geteuid?.() === 0;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!asRoot)('the shop service on loopback stops and another user takes its port', () => {
  it('nothing reaches them; the inbox says why, backs off, and goes on once its own service is back', async () => {
    const sim = createSimulator();
    cleanups.push(() => sim.close());
    const running = await sim.listen({ host: '127.0.0.1', port: 0 });
    const { baseUrl } = running;
    const port = Number(new URL(baseUrl).port);
    const session: Session = createSession({
      baseUrl,
      apiKey: sim.tokens.write,
      visibleSlots: visibleReads,
      backoff: { baseMs: 100, maxMs: 400 },
      client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    });
    cleanups.push(() => session.close());
    session.start();
    await until(() => session.store.getState().me.data);

    // The shop's local service stops (its listener closes, its connections with it).
    await running.close();
    const stranger: ForeignListener = await startForeignListener({ host: '127.0.0.1', port });
    let strangerStopped = false;
    cleanups.push(() => (strangerStopped ? undefined : stranger.stop()));
    session.poller.refreshAll();
    const offline = await until(() => {
      const connection = session.store.getState().connection;
      return connection.state === 'offline' && connection.message.includes('belongs to user')
        ? connection
        : undefined;
    });
    expect(offline.message).toBe(
      `the service on 127.0.0.1:${port} belongs to user ${OTHER_UID}, not you: the key was not sent. Check that your own service runs there, or use https`,
    );
    expect(offline.retryAt).toBeGreaterThan(offline.since);
    expect(stranger.connections).toBeGreaterThan(0);
    await stranger.stop();
    strangerStopped = true;
    expect(stranger.received).toBe('');

    // The same service starts again on its port.
    await sim.listen({ host: '127.0.0.1', port });
    await until(() => (session.store.getState().connection.state === 'ok' ? true : undefined), 10_000);
  });
});
