/** Where this user's shop-inbox settings live, by the XDG base directory rules. */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  if (xdg && isAbsolute(xdg)) return join(xdg, 'shop-inbox');
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  return join(home, '.config', 'shop-inbox');
}

export function configFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

export function keyFilePath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'key');
}
