/** The local stand-ins (DynamoDB Local, s3rver) do not check signatures; fixed credentials keep the SDK from searching the machine for real ones. */
export const STAND_IN_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
