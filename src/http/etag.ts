import type { FastifyRequest } from "fastify";

/** Whether the request's If-None-Match names this version (sent as the weak ETag `W/"version"`). */
export function etagMatches(request: FastifyRequest, version: string): boolean {
  const sent = request.headers["if-none-match"];
  if (typeof sent !== "string") return false;
  const etag = `W/"${version}"`;
  return sent.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag === etag || tag === etag.slice(2);
  });
}
