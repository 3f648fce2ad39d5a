// Types of scripts/bundle-app.mjs, for the TypeScript tests that import it (tests/packaging).
/** Never bundled, whatever an app lists: native addons and large libraries. */
export declare const NEVER_BUNDLED: readonly string[];
/** The package a bare import specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export declare function packageOf(specifier: string): string;
/** Bundles the app in `appDir` into `appDir/dist`. Returns the esbuild metafile. */
export declare function bundleApp(appDir: string, options?: { metafile?: string }): Promise<unknown>;
