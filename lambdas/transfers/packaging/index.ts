/** The transfer packaging layer: what the transfer job calls to package, encrypt and describe a delivery. */
export { packageTransfer } from './packager.ts';
export { buildTransferManifest, manifestCsv, manifestJson, type ManifestDelivery, type ManifestInput, type ManifestSource } from './manifest.ts';
export { parsePgpPublicKey, type ParsedPgpKey, type PgpKeyInfo } from './pgp-key.ts';
export { PackagingError } from './errors.ts';
export type { ByteSource, EntryDigest, OutputDigest, PackagedOutput, Packaging, PackagingEntry, PackagingOptions } from './types.ts';
