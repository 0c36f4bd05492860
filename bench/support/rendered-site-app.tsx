/**
 * The rendered-crawl bench's client-rendered site (bench/support/rendered-site.ts): every page's file is the same kind
 * of shell, and React renders the page its path names: its title, description, heading, body text and links.
 */
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { pageHref, treeLinks } from './site-tree.ts';

declare const PAGES: number;

function Page({ i }: { i: number }) {
  useEffect(() => {
    document.title = `Rendered page ${i}`;
    document.querySelector('meta[name=description]')?.setAttribute('content', `Description of rendered page ${i}.`);
  }, [i]);
  const words = `Page ${i} of the rendered benchmark site describes item ${i} in plain words for the crawler to count. `;
  return (
    <main>
      <h1>Rendered page {i}</h1>
      <ul>
        {treeLinks(i, PAGES).map((n, k) => (
          <li key={k}>
            <a href={pageHref(n)}>Page {n}</a>
          </li>
        ))}
      </ul>
      <p>{words.repeat(8)}</p>
    </main>
  );
}

const match = /^\/page\/(\d+)\.html$/.exec(location.pathname);
createRoot(document.getElementById('root') as HTMLElement).render(<Page i={match ? Number(match[1]) : 0} />);
