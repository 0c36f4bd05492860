/**
 * Prints the slowest test files and the run's wall time at the end of `vitest run`, so that a CI log's tail says
 * where the suite's time goes (CI keeps only the end of the output).
 */
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

export default class SlowestFilesReporter implements Reporter {
  #started = performance.now();

  onTestRunStart(): void {
    this.#started = performance.now();
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const files = testModules
      .map((m) => ({
        name: `${m.project.name} ${m.moduleId.replace(`${process.cwd()}/`, '')}`,
        ms: m.diagnostic().duration,
      }))
      .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name));
    const total = files.reduce((sum, f) => sum + f.ms, 0);
    const wall = (performance.now() - this.#started) / 1000;
    const lines = files.slice(0, SHOWN).map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name}`);
    console.log(
      `\nSlowest ${Math.min(SHOWN, files.length)} of ${files.length} test files (all files ${Math.round(total / 1000)} s, wall ${Math.round(wall)} s):\n${lines.join('\n')}\n`,
    );
  }
}
