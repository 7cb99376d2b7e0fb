import type { KeyObject } from "node:crypto";
import { signEs256 } from "./tokens.ts";

/** What TokenSigner sends its signing thread. */
export interface SignBatch {
  id: number;
  /** Keys the thread has not been sent before. */
  keys: Array<[kid: string, key: KeyObject]>;
  jobs: Array<[kid: string, signingInput: string]>;
}

export type SignedBatch = { id: number; signatures: string[] } | { id: number; error: string };

/** Signs batches, remembering the keys each batch brings for the ones after it. */
export function batchSigner(): (batch: SignBatch) => SignedBatch {
  const keys = new Map<string, KeyObject>();
  return (batch) => {
    try {
      for (const [kid, key] of batch.keys) keys.set(kid, key);
      const signatures = batch.jobs.map(([kid, input]) => {
        const key = keys.get(kid);
        if (!key) throw new Error(`signing key ${kid} was never sent to the signing thread`);
        return signEs256(input, key);
      });
      return { id: batch.id, signatures };
    } catch (error) {
      return { id: batch.id, error: (error as Error).message };
    }
  };
}
