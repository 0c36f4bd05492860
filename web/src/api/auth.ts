import { getJson, postJson } from './client.ts';
import type { SessionAnswer } from './types.ts';

export function fetchSession(signal?: AbortSignal): Promise<SessionAnswer> {
  return getJson<SessionAnswer>('/api/auth/me', { signal, isSessionProbe: true });
}

export function login(email: string, password: string): Promise<SessionAnswer> {
  return postJson<SessionAnswer>('/api/auth/login', { email, password }, { isSessionProbe: true });
}

export function logout(): Promise<unknown> {
  return postJson<unknown>('/api/auth/logout', {}, { isSessionProbe: true });
}
