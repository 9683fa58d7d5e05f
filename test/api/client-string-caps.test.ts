/**
 * No answer can flood a screen or a log: every server string the client keeps
 * on an error (message, code, issues, header values) is cut to a sane length,
 * and `shop-inbox status` prints only capped, sanitized text. Against the
 * hostile server over a real socket.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  MAX_ISSUE_STRING_CHARS,
  MAX_ISSUES,
  MAX_MESSAGE_CHARS,
  MAX_RETRY_AFTER_S,
} from '../../src/api/limits.js';
import { type HostileServer, makeAnswer } from '../support/hostile-server.js';
import { clientOf, failure, hostile, length, MiB, rejection } from './hostile-client.js';

describe('server strings are capped where they are kept', () => {
  it('a 1 MB error message, a 1 MB code and 800 issues of 1 KB strings: capped, and the call stays fast', async () => {
    const server = await hostile();
    server.behave({
      kind: 'bigError',
      status: 422,
      messageBytes: MiB,
      codeBytes: MiB,
      issues: 800,
      issueBytes: 1024,
    });
    const { error, ms } = await failure(clientOf(server).getContacts());
    expect(error.status).toBe(422);
    expect(error.message.startsWith('BIG ERROR:xxx')).toBe(true);
    expect(length(error.message)).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(error.message.endsWith('…')).toBe(true);
    expect(length(error.code)).toBeLessThanOrEqual(64);
    expect(error.code.startsWith('code:xx')).toBe(true);
    expect(error.issues).toHaveLength(MAX_ISSUES);
    expect(error.issues?.at(-1)).toBe(`… and ${800 - (MAX_ISSUES - 1)} more`);
    for (const issue of error.issues?.slice(0, -1) ?? []) {
      const { field, message } = issue as { field: string; message: string };
      expect(length(field)).toBeLessThanOrEqual(MAX_ISSUE_STRING_CHARS);
      expect(length(message)).toBeLessThanOrEqual(MAX_ISSUE_STRING_CHARS);
    }
    // Every printed form of the error is small.
    expect(String(error).length).toBeLessThan(1_000);
    expect(JSON.stringify(error).length).toBeLessThan(10 * 1024);
    expect(ms).toBeLessThan(2_000);
  });

  it('a Retry-After of a thousand digits or a year is not honoured as such', async () => {
    const server = await hostile();
    const client = clientOf(server);
    server.behave({ kind: 'html', status: 429, retryAfter: '9'.repeat(1_000) });
    expect((await rejection(client.getMe())).retryAfter).toBeUndefined();
    server.behave({ kind: 'html', status: 429, retryAfter: String(365 * 24 * 3600) });
    expect(await rejection(client.getMe())).toMatchObject({
      code: 'rate_limited',
      retryAfter: MAX_RETRY_AFTER_S,
    });
  });

  it('a message cut in the middle of an emoji keeps whole characters', async () => {
    const server = await hostile();
    const message = `${'a'.repeat(MAX_MESSAGE_CHARS - 2)}👨‍👩‍👧‍👦👍🏽 and more`;
    server.behave({
      kind: 'status',
      status: 404,
      body: JSON.stringify({ error: message, code: 'not_found' }),
    });
    const error = await rejection(clientOf(server).getLead('x'));
    expect(length(error.message)).toBe(MAX_MESSAGE_CHARS);
    // No lone surrogate: the text survives a round trip through UTF-8.
    expect(Buffer.from(error.message, 'utf8').toString('utf8')).toBe(error.message);
  });
});

describe('shop-inbox status prints capped, sanitized text', () => {
  const exec = promisify(execFile);
  const status = (server: HostileServer) =>
    exec(process.execPath, ['dist/cli.js', 'status'], {
      env: { PATH: process.env.PATH ?? '', SHOP_API_BASE_URL: server.baseUrl, SHOP_API_KEY: 'shk_test_key' },
      maxBuffer: 64 * MiB,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  /** Any C0 control but the line break, DEL, a C1 control, or a bidi control. */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const unsafe = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

  it('a 1 MB error: one short line; a 10 MB one: its status', async () => {
    const server = await hostile();
    server.behave({ kind: 'bigError', status: 418, messageBytes: MiB });
    const { code, stdout, stderr } = await status(server);
    expect(code).toBe(1);
    // Only what this machine knows (its outbox) is printed; nothing of the error's body.
    expect(stdout).toBe('  Outbox   no text waiting\n');
    expect(stderr.length).toBeLessThan(MAX_MESSAGE_CHARS * 4);
    expect(stderr).toMatch(/^shop-inbox: BIG ERROR:x+…\n$/);

    // Past the body cap, the error's body is dropped unread.
    server.behave({ kind: 'bigError', status: 418, messageBytes: 10 * MiB });
    expect(await status(server)).toMatchObject({
      code: 1,
      stderr: "shop-inbox: the shop's API answered HTTP 418\n",
    });
  });

  it('an error whose message and code carry escape sequences and controls: none reach the output', async () => {
    const server = await hostile();
    server.behave({ kind: 'hostileError', status: 400 });
    const { code, stderr } = await status(server);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.trimEnd()).not.toMatch(unsafe);
  });

  it('answers whose every string is hostile: printed sanitized', async () => {
    const server = await hostile();
    server.behave({ kind: 'injection' });
    const { code, stdout } = await status(server);
    expect(code).toBe(0);
    expect(stdout).toContain('Hostile Plumbing');
    expect(stdout).not.toMatch(unsafe);
  });

  it('a business name of a megabyte: the line is cut', async () => {
    const server = await hostile();
    const me = makeAnswer('getMe', {}, { strings: 'plain' }) as { identity: Record<string, string> };
    me.identity.business_name = `Huge ${'B'.repeat(MiB)}`;
    server.behave({ kind: 'status', status: 200, body: JSON.stringify({ data: me }) }, 'getMe');
    const { code, stdout } = await status(server);
    expect(code).toBe(0);
    const [title] = stdout.split('\n');
    expect(title).toMatch(/^Huge B+… \(/);
    expect(length(title ?? '')).toBeLessThan(1_000);
    expect(stdout.length).toBeLessThan(4_000);
  });
});
