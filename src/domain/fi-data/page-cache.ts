const bytesOf = (parts: RenderedParts) => parts.reduce((sum, part) => sum + part.length, 0);

/**
 * Serialised answers (UTF-8, in parts: a per-response value such as the time goes between them) by data version (an immutable snapshot's page in one representation), least
 * recently used first out once `maxBytes` is reached. A refresh creates a new snapshot, hence new
 * versions: nothing here is ever stale, and there is nothing to invalidate.
 */
export type RenderedParts = readonly Buffer[];

export class PageCache {
  readonly #entries = new Map<string, RenderedParts>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string): RenderedParts | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: RenderedParts): void {
    const size = bytesOf(value);
    if (size > this.#maxBytes) return;
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#bytes -= bytesOf(previous);
      this.#entries.delete(key);
    }
    this.#entries.set(key, value);
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= bytesOf(entry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
