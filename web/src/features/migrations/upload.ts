/** The part of XMLHttpRequest an upload uses (a test passes a fake). */
export interface UploadRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

/** An upload storage refused or that never arrived; `status` 0 means the network failed (or it was stopped). */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * PUTs a file to a pre-signed URL with the headers it was signed for, reporting bytes sent as they go. XMLHttpRequest
 * rather than fetch: fetch has no upload progress in today's browsers (a streamed request body needs HTTP/2 and
 * half-duplex, which S3 pre-signed PUTs do not take), and a long upload must show that it moves.
 */
export function uploadWithProgress(options: {
  url: string;
  headers: Record<string, string>;
  file: Blob;
  onProgress: (sent: number, total: number) => void;
  signal?: AbortSignal;
  createRequest?: () => UploadRequest;
}): Promise<void> {
  const { url, headers, file, onProgress, signal } = options;
  const request = (options.createRequest ?? (() => new XMLHttpRequest() as unknown as UploadRequest))();
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadError('The upload was stopped', 0));
      return;
    }
    const stop = () => request.abort();
    signal?.addEventListener('abort', stop, { once: true });
    const done = () => signal?.removeEventListener('abort', stop);
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      done();
      if (request.status >= 200 && request.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else {
        reject(new UploadError(`Storage refused the upload (HTTP ${request.status})`, request.status));
      }
    };
    request.onerror = () => {
      done();
      reject(new UploadError('The upload did not reach storage: check the connection and try again', 0));
    };
    request.onabort = () => {
      done();
      reject(new UploadError('The upload was stopped', 0));
    };
    request.send(file);
  });
}
