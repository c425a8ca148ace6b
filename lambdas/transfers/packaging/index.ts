/** The transfer packaging layer: what the transfer job calls to package, encrypt and describe a delivery. */
export { packageTransfer } from './packager.ts';
export { buildTransferManifest, manifestCsv, manifestJson, type ManifestDelivery, type ManifestSource } from './manifest.ts';
export { parsePgpPublicKey } from './pgp-key.ts';
export { PackagingError } from './errors.ts';
export type { OutputDigest, PackagedOutput, Packaging, PackagingOptions } from './types.ts';
