/** Runs a mail delivery pass on request, one at a time: a request during a pass makes it go round once more. */
export class DeliveryLoop {
  #delivering: Promise<void> | undefined;
  #isDeliveryWanted = false;

  constructor(
    private readonly deliverPass: () => Promise<void>,
    private readonly logger: { error(message: string): void },
  ) {}

  /** Starts a delivery pass unless one is running. */
  soon(): void {
    this.#isDeliveryWanted = true;
    this.#delivering ??= (async () => {
      while (this.#isDeliveryWanted) {
        this.#isDeliveryWanted = false;
        await this.deliverPass().catch((error: unknown) =>
          this.logger.error(`mail delivery failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      }
    })().finally(() => (this.#delivering = undefined));
  }

  /** Resolves when no delivery pass is running. */
  async idle(): Promise<void> {
    while (this.#delivering) await this.#delivering;
  }
}
