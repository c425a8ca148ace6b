// The S3 client and the commands Verity sends, for the Lambda bundles only: esbuild resolves `@aws-sdk/client-s3` here
// (`alias` in lib/constructs/lambda-bundling.ts). Through the package's barrel, a module loaded on first use would
// bundle every command, paginator and waiter of S3 (esbuild keeps all of a lazily run barrel); these files are the
// same SDK code, one per name. Node, tests and the local stack import the package itself. A name missing here fails
// the bundle build (test/infra/bundles-load.test.ts builds every function).
export { S3Client } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/S3Client.js';
export { AbortMultipartUploadCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/AbortMultipartUploadCommand.js';
export { CompleteMultipartUploadCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/CompleteMultipartUploadCommand.js';
export { CreateMultipartUploadCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/CreateMultipartUploadCommand.js';
export { DeleteObjectCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/DeleteObjectCommand.js';
export { GetObjectCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/GetObjectCommand.js';
export { GetObjectLegalHoldCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/GetObjectLegalHoldCommand.js';
export { GetObjectRetentionCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/GetObjectRetentionCommand.js';
export { GetObjectTaggingCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/GetObjectTaggingCommand.js';
export { HeadObjectCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/HeadObjectCommand.js';
export { PutObjectCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/PutObjectCommand.js';
export { PutObjectLegalHoldCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/PutObjectLegalHoldCommand.js';
export { PutObjectRetentionCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/PutObjectRetentionCommand.js';
export { UploadPartCommand } from '../../../../../node_modules/@aws-sdk/client-s3/dist-es/commands/UploadPartCommand.js';
