/** Where this user's shop-inbox settings live, by the XDG base directory rules. */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `$VARIABLE/shop-inbox`, or `~/<fallback>/shop-inbox` when the variable is unset. */
function xdgDir(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const xdg = env[variable];
  // The XDG spec says a relative path in these variables is invalid and must be ignored.
  if (xdg && isAbsolute(xdg)) return join(xdg, 'shop-inbox');
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  return join(home, fallback, 'shop-inbox');
}

export function configDir(env: NodeJS.ProcessEnv): string {
  return xdgDir(env, 'XDG_CONFIG_HOME', '.config');
}

/** Where state worth keeping across runs lives: the outbox. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return xdgDir(env, 'XDG_STATE_HOME', join('.local', 'state'));
}

/** Where what can be made again lives: the compiled-code cache. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return xdgDir(env, 'XDG_CACHE_HOME', '.cache');
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

export function keyFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'key');
}
