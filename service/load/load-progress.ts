export type LoadPhase = 'validate' | 'load' | 'precompute' | 'commit' | 'done';

export interface LoadProgress {
  phase: LoadPhase;
  label: string;
  /** Steps finished so far, of `total`. */
  completed: number;
  total: number;
}

/** Counts a load's steps for its listener; `done` always reports all of them. */
export class Progress {
  #completed = 0;

  constructor(
    readonly listener: ((progress: LoadProgress) => void) | undefined,
    readonly total: number,
  ) {}

  step(phase: LoadPhase, label: string): void {
    const completed = phase === 'done' ? this.total : this.#completed++;
    this.listener?.({ phase, label, completed: Math.min(completed, this.total), total: this.total });
  }
}
