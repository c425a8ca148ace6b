/// <reference types="vite/client" />

/** Build-time settings (`VITE_*`); runtime `window.__VERITY_CONFIG__` overrides them (see config.ts). */
interface ImportMetaEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_CLIENT_API_BASE?: string;
  readonly VITE_INTERNAL_BASE?: string;
  readonly VITE_DEVICE_BASE?: string;
}

interface Window {
  /** Set by `/config.js` before the bundle runs; validated by `loadConfig`. */
  __VERITY_CONFIG__?: unknown;
}

/** This build's id (vite.config.ts `define`); `/version.json` holds the id of the build now deployed. */
declare const __VERITY_VERSION__: string;
