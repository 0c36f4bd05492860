/** Typed arrays that grow as a crawl learns URLs: a few bytes a URL where an Array of numbers takes eight or more. */

interface TypedArray {
  readonly length: number;
  [index: number]: number;
  set(array: ArrayLike<number>, offset?: number): void;
}

abstract class Growable<T extends TypedArray> {
  protected data: T;
  length = 0;

  constructor(private readonly make: (capacity: number) => T) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }
}

export class GrowableUint8 extends Growable<Uint8Array> {
  constructor() {
    super((n) => new Uint8Array(n));
  }
}

export class GrowableUint32 extends Growable<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}

export class GrowableInt32 extends Growable<Int32Array> {
  constructor() {
    super((n) => new Int32Array(n));
  }
}
