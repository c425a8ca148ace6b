/** The longest text read of one message (an SMS is far shorter; anything longer is cut, not loaded whole). */
const MAX_TEXT_BYTES = 64 * 1024;

/** A message's text from a short-lived link to its object: only its first 64 KiB are asked for, read as UTF-8. */
export async function fetchMessageText(url: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(url, { headers: { Range: `bytes=0-${MAX_TEXT_BYTES - 1}` }, ...(signal === undefined ? {} : { signal }) });
  if (!response.ok) throw new Error(`The text could not be fetched (HTTP ${response.status}).`);
  return new TextDecoder('utf-8').decode(await response.arrayBuffer());
}
