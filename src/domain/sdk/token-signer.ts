import type { KeyObject } from "node:crypto";
import { Worker } from "node:worker_threads";
import type { SignBatch, SignedBatch } from "./signing-batch.ts";
import { es256SigningInput } from "./tokens.ts";

interface Job {
  kid: string;
  key: KeyObject;
  signingInput: string;
  resolve: (token: string) => void;
  reject: (error: Error) => void;
}

/**
 * Signs ES256 session tokens on a thread of its own. Requests that arrive in the same turn of
 * the event loop go over as one batch. Measured (npm run bench:sdk), a route that only signs
 * serves about 1.5 times as many tokens this way as signing on the event loop (15,000-16,600
 * against 10,100-10,400 req/s), which then spends its time on HTTP, the session write and the
 * log line while the other core signs.
 *
 * OpenSSL signs, through node:crypto, rather than jose: jose 6 signs through WebCrypto, whose
 * ECDSA path costs more than twice the CPU (about 60 against 23 us a token). The tokens are
 * standard JWTs; jose verifies them in the tests, and an SDK verifies them with any JOSE library
 * against the published JWKS.
 */
export class TokenSigner {
  readonly #workerScript: URL;
  #worker: Worker | null = null;
  #sentKids = new Set<string>();
  #queue: Job[] = [];
  #inFlight = new Map<number, Job[]>();
  #nextBatch = 0;
  #closed = false;

  constructor(workerScript = new URL("./signing-worker.ts", import.meta.url)) {
    this.#workerScript = workerScript;
  }

  sign(header: { kid: string; typ: "JWT" }, claims: object, key: KeyObject): Promise<string> {
    if (this.#closed) return Promise.reject(new Error("the token signer is closed"));
    const signingInput = es256SigningInput(header, claims);
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ kid: header.kid, key, signingInput, resolve, reject }) === 1) setImmediate(() => this.#send());
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
    this.#failAll(new Error("the token signer was closed"));
  }

  #send(): void {
    const jobs = this.#queue;
    this.#queue = [];
    if (jobs.length === 0) return;
    const worker = this.#ensureWorker();
    const keys: SignBatch["keys"] = [];
    for (const job of jobs) {
      if (this.#sentKids.has(job.kid)) continue;
      this.#sentKids.add(job.kid);
      keys.push([job.kid, job.key]);
    }
    const id = this.#nextBatch++;
    this.#inFlight.set(id, jobs);
    worker.postMessage({ id, keys, jobs: jobs.map((job) => [job.kid, job.signingInput]) } satisfies SignBatch);
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerScript);
    // Never what keeps the process alive; close() ends it.
    worker.unref();
    worker.on("message", (answer: SignedBatch) => this.#answer(answer));
    // A dead thread fails what it held; the next token starts a new one.
    const lost = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      this.#sentKids.clear();
      this.#failAll(error);
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`the signing thread exited with code ${code}`)));
    this.#worker = worker;
    return worker;
  }

  #answer(answer: SignedBatch): void {
    const jobs = this.#inFlight.get(answer.id);
    if (!jobs) return;
    this.#inFlight.delete(answer.id);
    if ("error" in answer) {
      for (const job of jobs) job.reject(new Error(answer.error));
      return;
    }
    jobs.forEach((job, index) => job.resolve(`${job.signingInput}.${answer.signatures[index]}`));
  }

  #failAll(error: Error): void {
    const jobs = [...this.#inFlight.values()].flat().concat(this.#queue);
    this.#inFlight.clear();
    this.#queue = [];
    for (const job of jobs) job.reject(error);
  }
}
