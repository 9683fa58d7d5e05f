import type { BuildOptions, Plugin } from 'esbuild';

/** esbuild options for a bundled Ink program as Ink ships (see bundle-options.mjs). */
export declare const INK_BUNDLE: BuildOptions & { plugins: Plugin[] };
/** Ink and Yoga patched for the CLI (see bundle-options.mjs). */
export declare const patchedInk: Plugin;
