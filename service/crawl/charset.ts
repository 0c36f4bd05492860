/** A page's character encoding: the Content-Type charset, a byte-order mark or `<meta charset>`, else UTF-8. */

/**
 * The page's charset from a byte-order mark or, within the first 1024 bytes, `<meta charset>` or
 * `<meta http-equiv=content-type content="...; charset=...">`; the WHATWG encoding name, or null when absent
 * or unknown.
 */
export function sniffCharset(bytes: Buffer): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024));
  const match = metaCharsetPattern.exec(head);
  return match?.[1] === undefined ? null : encodingName(match[1]);
}

/** The WHATWG name of a charset label (`latin1` → `windows-1252`), or null when the label is unknown. */
export function encodingName(label: string): string | null {
  const key = label.trim().toLowerCase();
  let name = encodingNames.get(key);
  if (name === undefined) {
    try {
      name = new TextDecoder(key).encoding;
    } catch {
      return null;
    }
    encodingNames.set(key, name);
  }
  return name;
}

/** Known labels only (a few hundred exist), so pages cannot grow it. */
const encodingNames = new Map<string, string>();

/** Decodes a page's bytes: the given charset (from the Content-Type header) if known, else sniffed, else UTF-8. */
export function decodeHtml(bytes: Buffer, charset?: string | null): string {
  const encoding = (charset ? encodingName(charset) : null) ?? sniffCharset(bytes) ?? 'utf-8';
  if (encoding === 'utf-8') {
    const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return bytes.toString('utf8', hasBom ? 3 : 0);
  }
  return new TextDecoder(encoding).decode(bytes);
}

const metaCharsetPattern = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;
