/**
 * What the request scheduler granted is confirmed just before each attempt is
 * written (a hub taken over between the two sends nothing), against the real
 * simulator, which logs every request that reached it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttemptPermit } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { recordingSleep, startSim } from '../support/sim.js';

const refusal = () =>
  new ApiError({
    status: 0,
    code: 'network',
    endpoint: 'the request',
    message: 'another terminal took over',
  });

describe('a permit confirmed just before the write', () => {
  it('sends the request when it holds, and nothing, without a retry, when it no longer does', async () => {
    const t = await startSim();
    const waits = recordingSleep();
    let valid = true;
    const confirmed: string[] = [];
    const client = t.client('write', {
      sleep: waits.sleep,
      beforeAttempt: async (info): Promise<AttemptPermit> => ({
        confirm: () => {
          confirmed.push(info.endpoint);
          if (!valid) throw refusal();
        },
      }),
    });
    await client.getMe();
    expect(confirmed).toEqual(['GET /me']);
    valid = false;
    const error = (await client.getInbox().catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/another terminal took over/);
    expect(error.attempts).toBe(0);
    expect(waits.waits).toEqual([]);
    expect((await t.requests()).map((r) => r.path)).toEqual(['/v1/me']);
  });

  it('confirms every permit of a call before each retry: a call granted under a void permit sends no retry', async () => {
    const t = await startSim();
    t.sim.faults.failNext({ kind: 'status', status: 503 });
    const permits: boolean[] = [];
    const client = t.client('write', {
      random: () => 0.5,
      // The first attempt's permit turns void while the call waits to retry (the hub was taken over meanwhile).
      sleep: async () => {
        permits[0] = false;
      },
      beforeAttempt: async () => {
        const index = permits.push(true) - 1;
        return {
          confirm: () => {
            if (!permits[index]) throw refusal();
          },
        };
      },
    });
    const error = (await client.getInbox().catch((caught: unknown) => caught)) as ApiError;
    expect(error.message).toMatch(/another terminal took over/);
    // The retry was granted its own slot, and still not written.
    expect(permits).toEqual([false, true]);
    expect(error.attempts).toBe(1);
    expect((await t.requests()).map((r) => r.status)).toEqual([503]);
  });

  it('is asked once the new connection is made and checked, not when the slot is granted', async () => {
    const t = await startSim();
    const dir = await mkdtemp(join(tmpdir(), 'shop-inbox-permit-'));
    try {
      // The guard reads its IPv4 table from a pipe: the check of the new connection waits until this test
      // writes the real table into it.
      const tcp = join(dir, 'tcp');
      execFileSync('mkfifo', [tcp]);
      const tcp6 = join(dir, 'tcp6');
      await symlink('/proc/net/tcp6', tcp6);
      let valid = true;
      const client = t.client('write', {
        loopbackGuard: { socketTables: { tables: { tcp, tcp6 } } },
        beforeAttempt: async () => ({
          confirm: () => {
            if (!valid) throw refusal();
          },
        }),
      });
      const reading = client.getMe().catch((caught: unknown) => caught);
      // Opening the pipe for writing returns once the guard has opened it: the connection is made, being checked.
      const pipe = await open(tcp, 'w');
      valid = false;
      await pipe.writeFile(await readFile('/proc/net/tcp'));
      await pipe.close();
      const error = (await reading) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.message).toMatch(/another terminal took over/);
      expect(await t.requests()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
