import { inject } from 'vitest';
import type { StackInfo } from './stack-info.ts';

export type { StackInfo };

/** The running local stack (started by the global setup). */
export function stack(): StackInfo {
  return inject('stack');
}

/** Fetches a path of the stack's one origin. */
export function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${stack().apiUrl}${path}`, { redirect: 'manual', ...init });
}

/** `Authorization: Bearer <token>` plus any other headers. */
export function bearer(token: string, headers: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...headers };
}
