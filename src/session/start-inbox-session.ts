/**
 * The session of the full-screen inbox, started before its screen: the
 * header and the inbox are already on their way while the UI (Ink, React,
 * the panes) loads, so that the first frame shows the shop, not "loading…".
 * Nothing here loads the UI.
 */
import { resolve } from 'node:path';
import { readConfig } from '../config/config-file.js';
import { ConversationMarksFile } from '../config/conversation-marks-file.js';
import { KeyModeFile } from '../config/key-mode-file.js';
import type { KeySource } from '../config/key-watch.js';
import { resolveSettings } from '../config/settings.js';
import { shopNames } from '../config/shops.js';
import { OutboxFile } from '../outbox/outbox-file.js';
import { FIRST_SCREEN } from '../poller/refresh-plan.js';
import type { RequestStats } from '../poller/request-stats.js';
import { wallboardReads } from '../poller/wallboard-reads.js';
import type { Template, View } from '../store/app-store.js';
import { createSession, type Session, type ShopDirectory } from './create-session.js';

export interface InboxSessionOptions {
  /** The name of the shop in config.json's "shops", when it is one of them. */
  shop?: string;
  /** Every shop is opened read-only (--read-only, the wallboard), whatever config.json says of it. */
  readOnlyFlag?: boolean;
  baseUrl: string;
  apiKey: string;
  /** Sent with every request ("shop-inbox/0.1.0"): the command line knows its version, the session does not. */
  userAgent: string;
  readOnly: boolean;
  maxRpm: number;
  demo: boolean;
  /** The inbox, or the wallboard (read-only, its own reads). */
  view: View;
  /** Where the key came from (none in the demo): a refused key from a file is replaced by the next one saved. */
  keySource?: 'env' | 'key-file' | 'config';
  keyFile?: string;
  columns: number;
  rows: number;
  /** "timezone" in the config: the shop's zone (absent: its texting number's, else this machine's). */
  timeZone?: string;
  /** Canned replies, or why templates.json could not be used. */
  templates?: readonly Template[];
  templatesProblem?: string;
  /** Counts every request of the session (--metrics). */
  requestStats?: RequestStats;
  /** The environment the hub's socket is found from (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** Longest the first reads wait for the election of the box's hub (usually a few milliseconds). */
const HUB_WAIT_MS = 400;

function keySourceOf(options: InboxSessionOptions): KeySource | undefined {
  if (options.demo) return undefined;
  switch (options.keySource) {
    case 'env':
      return { kind: 'env' };
    case 'key-file':
      return options.keyFile ? { kind: 'key-file', path: resolve(options.keyFile) } : undefined;
    case 'config':
      return {
        kind: 'config',
        env: process.env,
        ...(options.shop !== undefined ? { shop: options.shop } : {}),
      };
    default:
      return undefined;
  }
}

/** config.json's shops, each opened as `shop-inbox --shop NAME` would open it. */
export function configShops(env: NodeJS.ProcessEnv, readOnlyFlag: boolean): ShopDirectory {
  return {
    names: async () => shopNames(await readConfig(env)),
    open: async (name) => {
      const settings = await resolveSettings({ shop: name, readOnly: readOnlyFlag }, env);
      return {
        name,
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        readOnly: settings.readOnly,
        keySource: { kind: 'config', env, shop: name },
        ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
      };
    },
  };
}

export function startInboxSession(options: InboxSessionOptions): Session {
  const keySource = keySourceOf(options);
  const env = options.env ?? process.env;
  // Set once made: the key mode's memory is asked for during createSession already, with the first shop.
  let made: Session | undefined;
  const session = createSession({
    ...(options.shop !== undefined ? { shop: options.shop } : {}),
    // The demo's simulator is its only shop.
    ...(options.demo ? {} : { shops: configShops(env, options.readOnlyFlag === true) }),
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    readOnly: options.readOnly,
    readOnlyReason: 'flag',
    maxRpm: options.maxRpm,
    columns: options.columns,
    rows: options.rows,
    client: {
      userAgent: options.userAgent,
      // The demo's key opens only the simulator this process runs: where the socket tables cannot
      // say whose a loopback port is, it may go there all the same.
      ...(options.demo ? { loopbackGuard: { trustWhenUnknown: true } } : {}),
    },
    view: options.view,
    ...(options.requestStats ? { requestStats: options.requestStats } : {}),
    visibleSlots: options.view === 'wallboard' ? wallboardReads : FIRST_SCREEN,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.templates ? { templates: options.templates } : {}),
    ...(options.templatesProblem ? { templatesProblem: options.templatesProblem } : {}),
    // The demo's simulator lives and dies with this process: nothing to resume.
    ...(options.demo
      ? {}
      : {
          outbox: (apiKey: string, baseUrl: string) => OutboxFile.forKey(process.env, baseUrl, apiKey),
          // Read and done, per shop and key, for this user (the demo's last as long as it runs).
          conversationMarks: (apiKey: string, baseUrl: string) =>
            ConversationMarksFile.forKey(env, baseUrl, apiKey),
        }),
    ...(keySource ? { keySource } : {}),
    // What the key may do, asked at start and remembered per key (not for a process that never writes; a
    // shop read-only by its config is not asked, but a writable shop switched to is).
    ...(options.readOnly && (options.readOnlyFlag === true || options.demo)
      ? {}
      : {
          keyMode: options.demo
            ? {}
            : {
                // The session's base URL is the new shop's by the time a switch asks for its key's memory.
                memory: (apiKey: string) => KeyModeFile.forKey(env, made?.baseUrl ?? options.baseUrl, apiKey),
              },
        }),
  });
  made = session;
  if (options.demo) {
    // The demo's simulator is this process's own: there is nothing to share.
    session.start();
    return session;
  }
  // The terminals of one user, shop and key share one poller and one budget (src/hub, loaded only here).
  const share = (baseUrl: string, apiKey: string) =>
    import('./share-session.js').then(({ shareSession }) => {
      const sharer = shareSession(session, { env, baseUrl, apiKey });
      return Promise.race([sharer.ready, new Promise((resolve) => setTimeout(resolve, HUB_WAIT_MS).unref())]);
    });
  void share(options.baseUrl, options.apiKey)
    .catch(() => {})
    .finally(() => session.start());
  // The old shop's hub was left by the switch (its link is closed); the new shop's is joined, or this one becomes it.
  session.onShopSwitch((target) => void share(target.baseUrl, target.apiKey).catch(() => {}));
  return session;
}
