// Runs s3rver in its own process. Why a child: s3rver needs `NODE_OPTIONS=--openssl-legacy-provider` (else a
// truncated ListObjectsV2 fails), which must not leak into the API's process. Plain JS so it starts without tsx.
//
// Input (argv[2]): JSON { directory, buckets: string[], corsXml }. Output over IPC:
//   { type: 'ready', port } once listening on 127.0.0.1; { type: 'event', event } for every S3 object event,
//   so the local stack can drive the same processing handler S3 notifications drive in AWS.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

// s3rver knows one access key (S3RVER). Like S3 mocks generally, the stand-in should not care which credentials
// the SDK signs with (DESIGN.md: "It does not check signatures"), so any key id maps to its one account; with
// allowMismatchedSignatures the signature itself is then not held against the caller.
const AWSAccount = createRequire(import.meta.url)('s3rver/lib/models/account.js');
const account = AWSAccount.DUMMY_ACCOUNT;
const findAccount = AWSAccount.registry.get.bind(AWSAccount.registry);
AWSAccount.registry.get = (accessKeyId) => findAccount(accessKeyId) ?? account;
const findSecret = account.accessKeys.get.bind(account.accessKeys);
account.accessKeys.get = (accessKeyId) => findSecret(accessKeyId) ?? 'S3RVER';

// S3 never shows a PUT that did not complete: an aborted request leaves the key as it was. s3rver pipes the request
// straight into the object's file, so an upload aborted half-way (processing refusing a tag mid-stream) left a partial
// file that HEAD and GET then served as an object. Here a streamed PUT goes to a temporary file that is renamed over
// the object only once the whole body arrived; an aborted one is removed.
const FilesystemStore = createRequire(import.meta.url)('s3rver/lib/stores/filesystem.js');
const storeObject = FilesystemStore.prototype.putObject;
FilesystemStore.prototype.putObject = async function putObjectWhole(object) {
  if (Buffer.isBuffer(object.content)) return storeObject.call(this, object);
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  const partialPath = `${objectPath}.${randomBytes(6).toString('hex')}.partial`;
  await mkdir(dirname(objectPath), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  const measure = new Transform({
    transform(chunk, _encoding, callback) {
      md5.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(object.content, measure, createWriteStream(partialPath));
    await rename(partialPath, objectPath);
  } catch (error) {
    await rm(partialPath, { force: true });
    throw error;
  }
  const digest = md5.digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
};

const options = JSON.parse(process.argv[2] ?? '{}');

const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: options.directory,
  // The SDK signs with the local credentials; signatures are not what we test here (DESIGN.md, S3 row).
  allowMismatchedSignatures: true,
  vhostBuckets: false,
  configureBuckets: (options.buckets ?? []).map((name) => ({ name, configs: [options.corsXml] })),
});

server.on('event', (event) => {
  process.send?.({ type: 'event', event });
});

const address = await server.run();
// The Object Lock proxy reuses its connections to us (keep-alive). Node closes an idle one after 5 s by default, and a
// busy proxy can pick it up just as it closes: its request then fails with "socket hang up" or EPIPE. Idle connections
// stay open for a minute here; the proxy's agent closes them first (it honours the Keep-Alive timeout we announce).
server.httpServer.keepAliveTimeout = 60_000;
server.httpServer.headersTimeout = 65_000;
process.send?.({ type: 'ready', port: address.port });

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(() => process.exit(0));
  // Open keep-alive sockets can hold close(); never linger past a second.
  setTimeout(() => process.exit(0), 1000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// The parent died without telling us: do not become an orphan.
process.on('disconnect', shutdown);
