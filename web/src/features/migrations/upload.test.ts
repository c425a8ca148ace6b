import { describe, expect, it } from 'vitest';
import { UploadError, uploadWithProgress, type UploadRequest } from './upload.ts';

/** A stand-in XMLHttpRequest that records what it was asked and lets the test play the network. */
function fakeRequest() {
  const sent: { method?: string; url?: string; headers: Record<string, string>; body?: Blob; aborted: boolean } = { headers: {}, aborted: false };
  const request: UploadRequest & { status: number } = {
    status: 0,
    upload: { onprogress: null },
    onload: null,
    onerror: null,
    onabort: null,
    open: (method, url) => Object.assign(sent, { method, url }),
    setRequestHeader: (name, value) => {
      sent.headers[name] = value;
    },
    send: (body) => {
      sent.body = body;
    },
    abort: () => {
      sent.aborted = true;
      request.onabort?.();
    },
  };
  return { request, sent };
}

const file = new Blob(['x'.repeat(1000)]);

describe('uploadWithProgress', () => {
  it('PUTs the file with its signed headers and reports bytes sent, then all of them', async () => {
    const { request, sent } = fakeRequest();
    const seen: Array<[number, number]> = [];
    const upload = uploadWithProgress({
      url: 'https://storage.test/raw/key?sig=1',
      headers: { 'content-type': 'application/octet-stream' },
      file,
      onProgress: (done, total) => seen.push([done, total]),
      createRequest: () => request,
    });
    request.upload.onprogress?.({ loaded: 400, total: 1000, lengthComputable: true });
    request.upload.onprogress?.({ loaded: 900, total: 0, lengthComputable: false });
    request.status = 200;
    request.onload?.();
    await upload;
    expect(sent).toMatchObject({ method: 'PUT', url: 'https://storage.test/raw/key?sig=1', headers: { 'content-type': 'application/octet-stream' }, body: file });
    expect(seen).toEqual([
      [400, 1000],
      [900, 1000],
      [1000, 1000],
    ]);
  });

  it('fails with the status storage answered', async () => {
    const { request } = fakeRequest();
    const upload = uploadWithProgress({ url: 'u', headers: {}, file, onProgress: () => undefined, createRequest: () => request });
    request.status = 403;
    request.onload?.();
    await expect(upload).rejects.toEqual(new UploadError('Storage refused the upload (HTTP 403)', 403));
  });

  it('fails on a network error, and stops when its signal aborts', async () => {
    const broken = fakeRequest();
    const failed = uploadWithProgress({ url: 'u', headers: {}, file, onProgress: () => undefined, createRequest: () => broken.request });
    broken.request.onerror?.();
    await expect(failed).rejects.toThrow(/did not reach storage/);

    const stopped = fakeRequest();
    const controller = new AbortController();
    const upload = uploadWithProgress({ url: 'u', headers: {}, file, onProgress: () => undefined, signal: controller.signal, createRequest: () => stopped.request });
    controller.abort();
    await expect(upload).rejects.toThrow('The upload was stopped');
    expect(stopped.sent.aborted).toBe(true);
  });
});
