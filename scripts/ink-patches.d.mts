/** The hunks of patches/ that node_modules does not hold (empty when every patch is applied). */
export declare function missingHunks(root?: string): Promise<string[]>;
/** Fails, naming each hunk, unless node_modules holds every patch of patches/. */
export declare function assertPatchesApplied(root?: string): Promise<void>;
/** The patched packages copied into `into`/node_modules with the patches taken out: as published. */
export declare function shippedCopy(into: string, root?: string): Promise<void>;
