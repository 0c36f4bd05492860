/**
 * An OpenAI-compatible chat-completions provider (hosted APIs, or local servers such as Ollama or llama.cpp):
 * POST {baseUrl}/chat/completions with a per-attempt timeout, retried with exponential backoff on timeouts,
 * network errors, 429 and 5xx; any other failure or a malformed answer is an AiProviderError.
 */
import { charLength, lengthLimits } from './check.ts';
import { AiProviderError, type AiProvider, type PageFacts, type SuggestionType } from './provider.ts';

export interface OpenAiOptions {
  /** Up to and including the API version, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  /** The wait before the first retry, doubled for each further one. */
  backoffMs: number;
}

const TEMPERATURE = 0.4;
const MAX_TOKENS = 160;

const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

export function promptOf(type: SuggestionType, facts: PageFacts): { system: string; user: string } {
  const { min, max } = lengthLimits[type];
  const what = type === 'page-title' ? 'an HTML page title' : 'a meta description';
  const system =
    `You write ${what} for search results. Answer with the text only: plain text, one line, ` +
    `no quotes, no markup, between ${min} and ${max} characters.`;
  const lines = [
    `Website brand: ${facts.brand}`,
    `URL: ${facts.url}`,
    `Current title: ${facts.pageTitle ?? '(none)'}`,
    `Current meta description: ${facts.description ?? '(none)'}`,
    `H1: ${facts.h1.join(' / ') || '(none)'}`,
    `H2: ${facts.h2.slice(0, 8).join(' / ') || '(none)'}`,
    `Top search queries (clicks, impressions): ${
      facts.topQueries.map((q) => `${q.query} (${q.clicks}, ${q.impressions})`).join('; ') || '(none)'
    }`,
    `Page language: ${facts.language ?? '(unknown)'}`,
    `Write ${what} of ${min} to ${max} characters that matches the top queries, in the page's language.`,
  ];
  return { system, user: lines.join('\n') };
}

class RetryableError extends AiProviderError {}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class OpenAiCompatibleProvider implements AiProvider {
  readonly name = 'openai';

  constructor(readonly options: OpenAiOptions) {}

  async suggest(type: SuggestionType, facts: PageFacts): Promise<string> {
    const { retries, backoffMs } = this.options;
    let lastError: AiProviderError | undefined;
    for (let attempt = 0; attempt <= retries; attempt += 1) {
      if (attempt > 0) await sleep(backoffMs * 2 ** (attempt - 1));
      try {
        return await this.#attempt(type, facts);
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        lastError = error;
      }
    }
    throw new AiProviderError(`AI provider failed after ${retries + 1} attempts: ${lastError?.message ?? 'unknown'}`);
  }

  async #attempt(type: SuggestionType, facts: PageFacts): Promise<string> {
    const { baseUrl, apiKey, model, timeoutMs } = this.options;
    const { system, user } = promptOf(type, facts);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    try {
      let response: Response;
      try {
        response = await fetch(`${baseUrl.replace(/\/+$/, '')}/chat/completions`, {
          method: 'POST',
          headers,
          signal: controller.signal,
          body: JSON.stringify({
            model,
            temperature: TEMPERATURE,
            max_tokens: MAX_TOKENS,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
          }),
        });
      } catch (error) {
        if (controller.signal.aborted) throw new RetryableError(`no answer within ${timeoutMs} ms`);
        throw new RetryableError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        if (controller.signal.aborted) throw new RetryableError(`no answer within ${timeoutMs} ms`);
        if (isRetryableStatus(response.status)) throw new RetryableError(`HTTP ${response.status}`);
        throw new AiProviderError(`malformed answer (HTTP ${response.status}, not JSON)`);
      }
      if (!response.ok) {
        const message = errorMessageOf(body);
        const detail = `HTTP ${response.status}${message ? `: ${message}` : ''}`;
        if (isRetryableStatus(response.status)) throw new RetryableError(detail);
        throw new AiProviderError(`AI provider refused the request (${detail})`);
      }
      const content = contentOf(body);
      if (content === undefined) throw new AiProviderError('malformed answer: no choices[0].message.content text');
      return content;
    } finally {
      clearTimeout(timer);
    }
  }
}

function contentOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  const message = (choices[0] as { message?: { content?: unknown } } | null)?.message;
  const content = message?.content;
  return typeof content === 'string' && charLength(content.trim()) > 0 ? content : undefined;
}

function errorMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}
