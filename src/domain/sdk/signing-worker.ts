// The thread that signs session tokens for TokenSigner. Plain erasable TypeScript, loaded by
// Node itself (no bundler in between).
import { parentPort } from "node:worker_threads";
import { batchSigner, type SignBatch } from "./signing-batch.ts";

const sign = batchSigner();
parentPort!.on("message", (batch: SignBatch) => parentPort!.postMessage(sign(batch)));
