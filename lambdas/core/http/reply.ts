/**
 * What an implementation returns when 200 with a JSON body is not the answer (201 on create, 204, extra headers).
 * A plain value means 200 with that value as the JSON body.
 */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export function reply<T>(body: T, options: { status?: number; headers?: Record<string, string> } = {}): Reply<T> {
  return new Reply(options.status ?? 200, body, options.headers ?? {});
}
