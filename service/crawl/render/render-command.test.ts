import { describe, expect, it } from 'vitest';
import { parseCrawlCommand, UsageError } from '../crawl-command.ts';

const parse = (...args: string[]) => parseCrawlCommand(['http://a.example/', '--out', 'x', ...args], {}).options;

describe('the render options of the command line', () => {
  it('reads no mode as none, and --render N alone as the timing sample', () => {
    expect(parse()).toMatchObject({ render: 0, renderMode: 'none', renderSettings: {} });
    expect(parse('--render', '5')).toMatchObject({ render: 5, renderMode: 'sample' });
  });

  it('takes the rendered crawl and its limits', () => {
    expect(
      parse(
        '--render-mode',
        'all',
        '--render-assets',
        '--render-quiet',
        '250',
        '--render-cap',
        '8000',
        '--render-tabs',
        '6',
      ),
    ).toMatchObject({ renderMode: 'all', renderSettings: { loadAssets: true, quietMs: 250, capMs: 8000, tabs: 6 } });
    expect(parse('--render-mode', 'all', '--render-quiet', '2499')).toMatchObject({
      renderSettings: { quietMs: 2499 },
    });
    expect(parse('--render-mode', 'all', '--render-cap', '1001')).toMatchObject({ renderSettings: { capMs: 1001 } });
  });

  it.each([
    [['--render-mode', 'some'], '--render-mode must be one of none, sample, all, not "some"'],
    [['--render-mode', 'sample'], '--render-mode sample needs --render N'],
    [['--render-mode', 'none', '--render', '3'], 'it cannot go with --render-mode none'],
    [['--render-mode', 'all', '--render-cap', '50'], '--render-cap must be a whole number of milliseconds from 100'],
    [['--render-mode', 'all', '--render-quiet', '1.5'], '--render-quiet must be a whole number'],
    [
      ['--render-mode', 'all', '--render-quiet', '2500'],
      '--render-quiet 2500 must be below half of --render-cap 5000 (the default): at most 2499 ms',
    ],
    [
      ['--render-mode', 'all', '--render-cap', '1000'],
      '--render-quiet 500 (the default) must be below half of --render-cap 1000: at most 499 ms',
    ],
    [['--render-mode', 'all', '--render-tabs', '0'], '--render-tabs must be a whole number from 1 to 32, not "0"'],
    [
      ['--render-mode', 'all', '--render-tabs', 'many'],
      '--render-tabs must be a whole number from 1 to 32, not "many"',
    ],
  ])('refuses %j', (args, message) => {
    expect(() => parse(...args)).toThrow(UsageError);
    expect(() => parse(...args)).toThrow(message);
  });
});
