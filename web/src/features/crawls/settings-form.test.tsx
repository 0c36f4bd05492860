// @vitest-environment happy-dom
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { defaultCrawlSettings, type CrawlSettings, type CrawlSettingsAnswer } from '../../../../catalog/crawl-runs.ts';
import { ApiError } from '../../api/client.ts';
import { renderWithTheme } from '../../test/render.tsx';
import { SettingsForm, type SettingsFormProps } from './settings-form.tsx';

afterEach(cleanup);

const saved: CrawlSettingsAnswer = {
  settings: defaultCrawlSettings('example.com'),
  isDefault: false,
  nextRunAt: '2026-11-30T06:00:00.000Z',
};

/** The page's part: it keeps the last saved answer. */
function Harness(props: Omit<SettingsFormProps, 'answer'>) {
  const [answer, setAnswer] = useState(saved);
  return (
    <SettingsForm
      {...props}
      answer={answer}
      onSaved={(next) => {
        setAnswer(next);
        props.onSaved(next);
      }}
    />
  );
}

function renderForm(
  save: (settings: CrawlSettings) => Promise<CrawlSettingsAnswer> = () => Promise.reject(new Error()),
) {
  const onSaved = vi.fn();
  const onChangedState = vi.fn();
  renderWithTheme(<Harness save={save} onSaved={onSaved} onChangedState={onChangedState} />);
  return { onSaved, onChangedState, saveButton: screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }) };
}

const field = (label: string) =>
  screen.getByLabelText<HTMLInputElement>(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`));

describe('SettingsForm', () => {
  it('shows the next run in London time and keeps Save disabled while nothing changed', () => {
    const { saveButton } = renderForm();
    expect(screen.getByTestId('next-run').textContent).toBe('Next run: Monday 30 November 2026, 06:00 (London)');
    expect(saveButton.disabled).toBe(true);
  });

  it('shows the shared check message at the field and keeps Save disabled while invalid', () => {
    const { saveButton, onChangedState } = renderForm();
    fireEvent.change(field('Start URL'), { target: { value: 'example.com' } });
    const input = field('Start URL');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = 'Start URL "example.com" is not a URL (it must start with http:// or https://)';
    expect(screen.getByText(message)).toBeTruthy();
    expect(
      document.getElementById(
        input
          .getAttribute('aria-describedby')!
          .split(' ')
          .find((id) => id.endsWith('error'))!,
      )?.textContent,
    ).toBe(message);
    expect(saveButton.disabled).toBe(true);
    expect(onChangedState).toHaveBeenLastCalledWith(true);
  });

  it('keeps a typed minus sign or fraction and names the field, never saving the number without it', () => {
    const { saveButton } = renderForm();
    fireEvent.change(field('Max URLs'), { target: { value: '-5' } });
    expect(field('Max URLs').value).toBe('-5');
    expect(screen.getByText('Max URLs must be a whole number from 1 to 1,000,000')).toBeTruthy();
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(field('Max depth'), { target: { value: '2.5' } });
    expect(field('Max depth').value).toBe('2.5');
  });

  it('checks each include pattern as a regular expression', () => {
    renderForm();
    fireEvent.change(field('Include patterns'), { target: { value: '/blog/\n(unclosed' } });
    expect(screen.getByText(/^Include pattern "\(unclosed" is not a valid regular expression/)).toBeTruthy();
  });

  it('saves the cleaned settings and reports them saved', async () => {
    const save = vi.fn((settings: CrawlSettings) => Promise.resolve({ ...saved, settings }));
    const { saveButton, onSaved } = renderForm(save);
    fireEvent.change(field('Exclude patterns'), { target: { value: '  /cart/  \n\n' } });
    expect(saveButton.disabled).toBe(false);
    fireEvent.click(saveButton);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0].exclude).toEqual(['/cart/']);
    await waitFor(() => expect(saveButton.disabled).toBe(true));
  });

  it('refuses a pattern the linear-time engine cannot run, and saves Check external links and Time limit', async () => {
    const save = vi.fn((settings: CrawlSettings) => Promise.resolve({ ...saved, settings }));
    const { saveButton, onSaved } = renderForm(save);
    fireEvent.change(field('Exclude patterns'), { target: { value: '/cart/\n(?<=x)y' } });
    expect(
      screen.getByText(
        'Exclude pattern "(?<=x)y" cannot be used: lookahead and lookbehind are not supported (patterns must run in linear time)',
      ),
    ).toBeTruthy();
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(field('Exclude patterns'), { target: { value: '(a+)+$' } });
    expect(field('Check external links').checked).toBe(true);
    expect(field('Time limit (hours)').value).toBe('6');
    fireEvent.click(field('Check external links'));
    fireEvent.change(field('Time limit (hours)'), { target: { value: '0' } });
    expect(screen.getByText('Time limit must be a whole number from 1 to 48')).toBeTruthy();
    fireEvent.change(field('Time limit (hours)'), { target: { value: '12' } });
    fireEvent.click(saveButton);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0]).toMatchObject({ exclude: ['(a+)+$'], checkExternal: false, timeLimitHours: 12 });
  });

  it("saves the rendered crawl's tabs and network quiet, and names either when out of range", async () => {
    const save = vi.fn((settings: CrawlSettings) => Promise.resolve({ ...saved, settings }));
    const { saveButton, onSaved } = renderForm(save);
    expect(field('Render tabs').value).toBe('16');
    expect(field('Network quiet (ms)').value).toBe('500');
    fireEvent.change(field('Render tabs'), { target: { value: '40' } });
    expect(screen.getByText('Render tabs must be a whole number from 1 to 32')).toBeTruthy();
    expect(saveButton.disabled).toBe(true);
    fireEvent.change(field('Render tabs'), { target: { value: '12' } });
    fireEvent.change(field('Network quiet (ms)'), { target: { value: '250' } });
    fireEvent.click(saveButton);
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![0]).toMatchObject({ renderTabs: 12, renderQuietMs: 250 });
  });

  it("shows the service's 400 at the field it names", async () => {
    const problem = { error: 'Start URL must be on a website the service may crawl', field: 'startUrl' };
    const save = () => Promise.reject(new ApiError(400, problem.error, undefined, problem));
    const { saveButton } = renderForm(save);
    fireEvent.change(field('Start URL'), { target: { value: 'https://elsewhere.example/' } });
    fireEvent.click(saveButton);
    await waitFor(() => expect(screen.getByText(problem.error)).toBeTruthy());
    expect(field('Start URL').getAttribute('aria-invalid')).toBe('true');
  });

  it('disables the time without a schedule and says no run is scheduled', () => {
    renderWithTheme(
      <SettingsForm
        answer={{ ...saved, settings: { ...saved.settings, schedule: null }, nextRunAt: null }}
        save={() => Promise.reject(new Error())}
        onSaved={() => {}}
      />,
    );
    expect(field('Time (London)').disabled).toBe(true);
    expect(screen.getByTestId('next-run').textContent).toBe('Next run: none scheduled');
  });

  it('lets never-saved defaults be saved as they are, and says nothing runs until then', () => {
    renderWithTheme(
      <SettingsForm
        answer={{ ...saved, isDefault: true, nextRunAt: null }}
        save={() => Promise.reject(new Error())}
        onSaved={() => {}}
      />,
    );
    expect(screen.getByTestId('next-run').textContent).toBe('Next run: none until the settings are saved');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(false);
  });
});
