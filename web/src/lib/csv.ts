/** Saves CSV text as a download named after the report (spec §9). */
import { csvFileName } from '../../../catalog/csv.ts';

export function downloadCsv(title: string, content: string | Blob): void {
  const blob = typeof content === 'string' ? new Blob([content], { type: 'text/csv;charset=utf-8' }) : content;
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = csvFileName(title);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
