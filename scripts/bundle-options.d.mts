import type { BuildOptions, Plugin } from 'esbuild';

/** esbuild options for a bundled Ink program (see bundle-options.mjs). */
export declare const INK_BUNDLE: BuildOptions & { plugins: Plugin[] };
export declare const BUNDLE_ALIASES: Record<string, string>;
