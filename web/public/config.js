// Runtime configuration for the Verity portal, read once at start by src/config.ts (and validated there).
// A deployment overwrites this file to point the portal at other bases, for example:
//   window.__VERITY_CONFIG__ = { apiBase: 'https://api.example.com/api/v1', internalBase: '/internal/v1' };
// Left empty, the portal uses same-origin defaults: /api/v1 and /internal/v1.
// The GPS map's base tiles (optional; without them the portal draws its bundled world outline), for example:
//   window.__VERITY_CONFIG__ = { mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', mapAttribution: '© Example maps' };
window.__VERITY_CONFIG__ = window.__VERITY_CONFIG__ || {};
