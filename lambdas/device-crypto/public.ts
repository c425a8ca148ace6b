/**
 * The device-crypto area's public module: what other areas use of it, and the only module of lambdas/device-crypto they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { deviceKeysOf, kekForDevice, openDeviceReference } from './device-keys.ts';
export { openUpload, unwrapDek, wrapDek } from './envelope.ts';
export { DEK_BYTES, IV_BYTES, PayloadCryptoError, TAG_BYTES, decryptContent, encryptContent, openPayloadDek, openPayloadMeta, openSealedMeta, sealPayload, sealPayloadMeta } from './payload-crypto.ts';
