/** An error message as one line, for embedding in another one-line message. */
export const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** The first line of an error's message (DuckDB's run to several, with hints and carets). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return oneLine(message.split('\n').find((line) => line.trim() !== '') ?? message);
}
