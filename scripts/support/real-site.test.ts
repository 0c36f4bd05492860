import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isListening } from './free-port.ts';
import { startNginx } from './real-site.ts';

describe('startNginx', () => {
  it('serves a directory on 127.0.0.1 through symlinks with the LinkChecker header, and frees the port on stop', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-nginx-site-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'docs/index.html'), '<title>Docs</title>');
      fs.writeFileSync(path.join(root, 'page.html.en'), '<title>English</title>');
      fs.symlinkSync('page.html.en', path.join(root, 'page.html'));
      const site = await startNginx({ root, serverDirectives: 'location = /old { return 301 /docs/; }' });
      expect(site.url).toBe(`http://127.0.0.1:${site.port}/`);

      const index = await fetch(`${site.url}docs/`);
      expect(index.status).toBe(200);
      expect(index.headers.get('linkchecker')).toBe('ok');
      expect(await index.text()).toBe('<title>Docs</title>');
      const linked = await fetch(`${site.url}page.html`);
      expect(linked.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await linked.text()).toBe('<title>English</title>');
      expect((await fetch(`${site.url}missing.html`)).status).toBe(404);
      const moved = await fetch(`${site.url}old`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toMatch(/\/docs\/$/);

      await site.stop();
      expect(await isListening(site.port)).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
