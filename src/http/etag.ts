import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Sets a weak ETag for `version` and answers 304 when the caller already has it. Returns true
 * when the 304 was sent.
 */
export function notModified(request: FastifyRequest, reply: FastifyReply, version: string): boolean {
  const etag = `W/"${version}"`;
  reply.header("etag", etag);
  const sent = request.headers["if-none-match"];
  if (typeof sent !== "string") return false;
  const matches = sent.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag === etag || tag === etag.slice(2);
  });
  if (matches) reply.code(304).send();
  return matches;
}
