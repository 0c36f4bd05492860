/**
 * An outbox's delivery: a pass over what is queued runs on request, one at a time, and a request during a pass makes
 * it go round once more. Approval emails and crawl-run notice emails each deliver through one.
 */
export abstract class MailDelivery {
  #delivering: Promise<void> | undefined;
  #isDeliveryWanted = false;

  constructor(private readonly deliveryLogger: { error(message: string): void }) {}

  /** Sends what is queued and not yet sent. */
  protected abstract deliverPass(): Promise<void>;

  /** Starts a delivery pass unless one is running. */
  deliverSoon(): void {
    this.#isDeliveryWanted = true;
    this.#delivering ??= (async () => {
      while (this.#isDeliveryWanted) {
        this.#isDeliveryWanted = false;
        await this.deliverPass().catch((error: unknown) =>
          this.deliveryLogger.error(`mail delivery failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      }
    })().finally(() => (this.#delivering = undefined));
  }

  /** Delivers what is queued and resolves when no delivery pass is running. */
  async deliverQueued(): Promise<void> {
    this.deliverSoon();
    await this.idle();
  }

  /** Resolves when no delivery pass is running. */
  async idle(): Promise<void> {
    while (this.#delivering) await this.#delivering;
  }
}
