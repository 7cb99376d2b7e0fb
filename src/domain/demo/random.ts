/** A small seeded PRNG (mulberry32): the same seed gives the same demo data on every machine. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** An amount in paise between min and max rupees, rounded to `step` rupees. */
  rupees(min: number, max: number, step = 1): number {
    return Math.round((min + this.next() * (max - min)) / step) * step * 100;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }
}
