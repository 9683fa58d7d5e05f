/** A mistake on the command line: reported in one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
