/**
 * The payloads area's public module: what other areas use of it, and the only module of lambdas/payloads they may
 * import (lint/lambda-boundaries.js). Re-exports only; the modules stay side-effect free for the bundler.
 */
export { removeDestroyedRecordingComments, type CommentRemovalLimits } from './comments/destroyed-recording-comments.ts';
export { processBlobEvent, scannedObjectsOf } from './processing/blob-events.ts';
export { memoryBlobs } from './processing/memory-blobs.ts';
export { inlineHasher, type PlaintextHasher } from './processing/plaintext-hasher.ts';
export { durationOf, lockWithHolds, numbersOf, processPayload, type ProcessingDependencies } from './processing/processing.ts';
export { createUploadUrl, isLate, payloadStateFor, registerPayload } from './processing/registration.ts';
export { sweepUnsettledPayloads } from './processing/sweep.ts';
export { WaveformPeaksSink, waveformObjectKey } from './processing/waveform-peaks.ts';
