import { createMessage, encrypt, enums, type Key } from 'openpgp';

/**
 * Encrypts a byte stream to one public key as binary OpenPGP, chunk by chunk as it is read (openpgp's own streams
 * keep backpressure, so memory stays flat whatever the size). Settings chosen for what receivers run: no compression
 * (recordings and zips do not shrink), and the SEIPD v1 packet with MDC that every GnuPG 2.x decrypts (the newer AEAD
 * packet is off so a key that advertises it still gets a message gpg 2.2 can read). The literal packet carries the
 * plaintext's file name, so `gpg --use-embedded-filename` restores it.
 */
export async function encryptToKey(
  plaintext: ReadableStream<Uint8Array>,
  key: Key,
  literal: { filename: string; date: Date },
): Promise<ReadableStream<Uint8Array>> {
  const message = await createMessage({ binary: plaintext, filename: literal.filename, date: literal.date, format: 'binary' });
  const encrypted = await encrypt({
    message,
    encryptionKeys: key,
    format: 'binary',
    config: { aeadProtect: false, preferredCompressionAlgorithm: enums.compression.uncompressed },
  });
  return encrypted as ReadableStream<Uint8Array>;
}
