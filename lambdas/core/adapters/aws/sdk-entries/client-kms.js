// The KMS client and the commands Verity sends, for the Lambda bundles only: esbuild resolves `@aws-sdk/client-kms`
// here (`alias` in lib/constructs/lambda-bundling.ts), so the key service loaded on first use bundles these commands,
// not every command and model of KMS. Node, tests and the local stack import the package itself.
export { KMSClient } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/KMSClient.js';
export { CreateKeyCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/CreateKeyCommand.js';
export { DecryptCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/DecryptCommand.js';
export { EncryptCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/EncryptCommand.js';
export { GenerateDataKeyCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/GenerateDataKeyCommand.js';
export { GetPublicKeyCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/GetPublicKeyCommand.js';
export { SignCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/SignCommand.js';
export { VerifyCommand } from '../../../../../node_modules/@aws-sdk/client-kms/dist-es/commands/VerifyCommand.js';
