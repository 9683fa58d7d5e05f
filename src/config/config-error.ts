/** A problem with this user's shop-inbox setup (key file, config.json), said in plain words. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
