/**
 * What every command that talks to a shop does around its own work: the shop
 * and key found as the inbox finds them, one client, and every failure said
 * once, in plain words on stderr and, with --json, as an error document on
 * stdout, ending with its exit code (src/cli/exit-codes.ts).
 */
import { createShopClient, type HttpShopClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { explainApiError } from '../api/explain-error.js';
import type { ResolvedSettings } from '../config/settings.js';
import { CliError } from '../contract/cli-output.js';
import { cliClock } from './cli-clock.js';
import { EXIT, type ExitCode, exitCodeOf } from './exit-codes.js';
import { writeJson } from './json-output.js';
import { type ShopFlagValues, settingsOrExplain } from './shop-settings.js';
import { UsageError } from './usage-error.js';
import { VERSION } from './version.js';

/** A failure a command says itself (a contact not found, a read-only key), with its exit code. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export interface VerbIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface ShopVerbContext extends VerbIo {
  env: NodeJS.ProcessEnv;
  settings: ResolvedSettings;
  client: HttpShopClient;
  json: boolean;
  now: () => number;
}

export interface ShopVerbOptions {
  env: NodeJS.ProcessEnv;
  values: ShopFlagValues;
  json: boolean;
  /** A command that only reads: its client refuses anything but GET before the network. */
  readsOnly: boolean;
  io?: VerbIo;
}

/** Says a failure: stderr always, and the error document on stdout with --json. */
export function reportFailure(
  io: VerbIo,
  json: boolean,
  failure: { code: string; message: string; exitCode: number; retryAfter?: number | undefined },
): void {
  io.stderr.write(`shop-inbox: ${failure.message}\n`);
  if (json)
    writeJson(
      CliError,
      {
        error: {
          code: failure.code,
          message: failure.message,
          exit_code: failure.exitCode,
          ...(failure.retryAfter !== undefined ? { retry_after: failure.retryAfter } : {}),
        },
      },
      io.stdout,
    );
}

/** The code and words of a failure, or undefined for a bug (rethrown). */
export function describeFailure(
  error: unknown,
): { code: string; message: string; exitCode: ExitCode; retryAfter?: number | undefined } | undefined {
  if (error instanceof ApiError)
    return {
      code: error.code,
      message: explainApiError(error),
      exitCode: exitCodeOf(error),
      retryAfter: error.retryAfter,
    };
  if (error instanceof CommandFailure)
    return { code: error.code, message: error.message, exitCode: error.exitCode };
  return undefined;
}

export async function runShopVerb(
  options: ShopVerbOptions,
  work: (context: ShopVerbContext) => Promise<ExitCode>,
): Promise<ExitCode> {
  const io = options.io ?? { stdout: process.stdout, stderr: process.stderr };
  const now = cliClock(options.env);
  let problem: string | undefined;
  const settings = await settingsOrExplain(options.values, options.env, (message) => {
    problem = message;
  });
  if (!settings) {
    reportFailure(io, options.json, {
      code: 'settings',
      message: problem ?? 'no settings',
      exitCode: EXIT.error,
    });
    return EXIT.error;
  }
  const client = createShopClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    readOnly: options.readsOnly || settings.readOnly,
    userAgent: `shop-inbox/${VERSION}`,
  });
  try {
    return await work({ ...io, env: options.env, settings, client, json: options.json, now });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const failure = describeFailure(error);
    if (!failure) throw error;
    reportFailure(io, options.json, failure);
    return failure.exitCode;
  }
}
