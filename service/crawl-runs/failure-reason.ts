/**
 * Why a crawl run failed, as the one readable sentence the history shows: the crawler's or the loader's own message
 * when it reads as one, else "The crawl failed: …" with what can be said (never a lone `[`, a stack frame or an
 * empty message).
 */
import { oneLine } from '../error-text.ts';

/** `TypeError: x`, `Error [ERR_X]: x`, `Uncaught RangeError: x`: the message after the error's name. */
const NAMED_MESSAGE = /^(?:Uncaught\s+)?[A-Z]\w*(?:Error|Exception)(?:\s*\[[\w-]+\])?:\s+(.*\S)\s*$/;
const NOT_A_MESSAGE = /^(?:at\s|file:\/\/|node:|Node\.js v\d|\[object \w+\]$)/;

const stripName = (line: string): string => NAMED_MESSAGE.exec(line)?.[1] ?? line;

/** Starts with a letter, a digit or a quote and has at least two words: not code, brackets or a stack frame. */
export function isReadable(text: string): boolean {
  return /^[\p{L}\p{N}"'`“‘]/u.test(text) && !NOT_A_MESSAGE.test(text) && (text.match(/\p{L}{2,}/gu) ?? []).length >= 2;
}

const linesOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => oneLine(line))
    .filter((line) => line !== '');

function describe(error: unknown): string {
  if (!(error instanceof Error)) return `an unexpected ${error === null ? 'null' : typeof error} was thrown`;
  const code = (error as { code?: unknown }).code;
  return `an unexpected ${error.name || 'error'}${typeof code === 'string' ? ` (${code})` : ''} with no readable message`;
}

/** The reason of a run whose worker caught `error`. */
export function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const lines = linesOf(message).map(stripName);
  const readable = lines.find(isReadable);
  if (readable !== undefined) return readable;
  const words = lines.find((line) => /\p{L}{2,}/u.test(line) && !NOT_A_MESSAGE.test(line));
  return `The crawl failed: ${words ?? describe(error)}`;
}

/** The reason of a run whose worker ended without saying why: from its exit and the end of its stderr. */
export function exitReason(exit: number | string, stderr: string): string {
  const how =
    exit === 'SIGKILL'
      ? 'the crawl worker was killed (SIGKILL), perhaps for lack of memory'
      : typeof exit === 'string'
        ? `the crawl worker was stopped (${exit})`
        : `the crawl worker stopped unexpectedly with exit code ${exit}`;
  const lines = linesOf(stderr).reverse();
  const named = lines.map((line) => NAMED_MESSAGE.exec(line)?.[1]).find((text) => text !== undefined);
  const said = named ?? lines.find(isReadable);
  return said === undefined ? `The crawl failed: ${how}` : `The crawl failed: ${said} (${how})`;
}
