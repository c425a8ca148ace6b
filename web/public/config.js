// Runtime configuration for the Verity portal, read once at start by src/config.ts (and validated there).
// A deployment overwrites this file to point the portal at other bases, for example:
//   window.__VERITY_CONFIG__ = { apiBase: 'https://api.example.com/api/v1', internalBase: '/internal/v1' };
// Left empty, the portal uses same-origin defaults: /api/v1 and /internal/v1.
window.__VERITY_CONFIG__ = window.__VERITY_CONFIG__ || {};
