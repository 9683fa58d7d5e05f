declare const __SHOP_INBOX_VERSION__: string | undefined;

/** Set by the bundler from package.json; "dev" when running from source. */
export const VERSION: string = typeof __SHOP_INBOX_VERSION__ === 'string' ? __SHOP_INBOX_VERSION__ : 'dev';
