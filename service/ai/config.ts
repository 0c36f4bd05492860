/**
 * The AI provider from the environment (docs/api.md, "AI suggestions"):
 *   AI_PROVIDER   offline (default) | openai
 *   AI_BASE_URL   the OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1
 *   AI_API_KEY    sent as a bearer token when set (local servers usually need none)
 *   AI_MODEL      the model name
 *   AI_TIMEOUT_MS per attempt, default 15000
 *   AI_RETRIES    further attempts on timeouts, 429 and 5xx, default 2 (backoff 500 ms, doubling)
 */
import { OfflineProvider } from './offline.ts';
import { OpenAiCompatibleProvider } from './openai.ts';
import type { AiProvider } from './provider.ts';

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_RETRIES = 2;
const DEFAULT_BACKOFF_MS = 500;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got ${raw}`);
  return n;
}

export function createAiProvider(env: NodeJS.ProcessEnv = process.env): AiProvider {
  const kind = env.AI_PROVIDER ?? 'offline';
  if (kind === 'offline' || kind === '') return new OfflineProvider();
  if (kind !== 'openai') throw new Error(`AI_PROVIDER must be offline or openai, got ${kind}`);
  const baseUrl = env.AI_BASE_URL;
  const model = env.AI_MODEL;
  if (!baseUrl || !URL.canParse(baseUrl)) throw new Error('AI_PROVIDER=openai needs AI_BASE_URL (an absolute URL)');
  if (!model) throw new Error('AI_PROVIDER=openai needs AI_MODEL');
  return new OpenAiCompatibleProvider({
    baseUrl,
    apiKey: env.AI_API_KEY || undefined,
    model,
    timeoutMs: integer(env, 'AI_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 1),
    retries: integer(env, 'AI_RETRIES', DEFAULT_RETRIES, 0),
    backoffMs: DEFAULT_BACKOFF_MS,
  });
}
