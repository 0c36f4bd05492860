import { describe, expect, it } from 'vitest';
import { parseRobots, robotsUrlOf } from './robots.ts';

const text = `User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: HealthCheckBot
Disallow: /bot-only/
Allow: /bot-only/open.html
Crawl-delay: 0.5

Sitemap: http://example.com/sitemap-a.xml
Sitemap: http://example.com/sitemap-b.xml.gz
`;

describe('parseRobots', () => {
  it("follows the user agent's own group over the * group", () => {
    const rules = parseRobots('http://example.com/robots.txt', text, 'HealthCheckBot/0.1 (+audit)');
    expect(rules.isAllowed('http://example.com/private/a.html')).toBe(true);
    expect(rules.isAllowed('http://example.com/bot-only/x.html')).toBe(false);
    expect(rules.isAllowed('http://example.com/bot-only/open.html')).toBe(true);
    expect(rules.crawlDelayMs).toBe(500);
  });

  it('falls back to the * group for other agents', () => {
    const rules = parseRobots('http://example.com/robots.txt', text, 'OtherBot/1.0');
    expect(rules.isAllowed('http://example.com/private/a.html')).toBe(false);
    expect(rules.isAllowed('http://example.com/bot-only/x.html')).toBe(true);
    expect(rules.crawlDelayMs).toBe(2000);
  });

  it('lists the Sitemap: lines', () => {
    const rules = parseRobots('http://example.com/robots.txt', text, 'OtherBot');
    expect(rules.sitemaps).toEqual(['http://example.com/sitemap-a.xml', 'http://example.com/sitemap-b.xml.gz']);
  });

  it('finds robots.txt at the origin', () => {
    expect(robotsUrlOf('http://example.com:8080/a/b?c')).toBe('http://example.com:8080/robots.txt');
  });
});
